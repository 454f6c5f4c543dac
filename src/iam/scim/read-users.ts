// GET /Users/{id} and GET /Users (RFC 7644 §3.4.1, §3.4.2): one provider's
// users only, filtered by `userName eq` (without case), `externalId eq` or
// `id eq`, paged by startIndex and count in id order.
import type { ScimContext } from './scim-context.js';
import { scimNotFound } from './scim-errors.js';
import { eqFilter, paging } from './scim-filter.js';
import type { Json } from './scim-json.js';
import { LIST_RESPONSE, SCIM_LIMITS, USER_SCHEMA } from './scim-schemas.js';
import { userResource } from './scim-user-resource.js';

export async function getUser(c: ScimContext, id: string): Promise<Json> {
  const row = await c.store.db.selectFrom('scim_users').selectAll().where('provider_uid', '=', c.provider.uid).where('id', '=', id).executeTakeFirst();
  if (!row) throw scimNotFound('User', id);
  return userResource(row, c);
}

export interface ListQuery {
  filter?: string;
  startIndex?: string;
  count?: string;
}

export async function listUsers(c: ScimContext, q: ListQuery): Promise<Json> {
  const f = eqFilter(q.filter, USER_SCHEMA, ['userName', 'externalId', 'id']);
  const { offset, limit } = paging(q.startIndex, q.count, SCIM_LIMITS.pageSize);
  let base = c.store.db.selectFrom('scim_users').where('provider_uid', '=', c.provider.uid);
  if (f?.attr === 'userName') base = base.where('user_name_key', '=', f.value.toLowerCase());
  else if (f?.attr === 'externalId') base = base.where('external_id', '=', f.value);
  else if (f?.attr === 'id') base = base.where('id', '=', f.value);
  const total = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  const rows = limit === 0 ? [] : await base.selectAll().orderBy('id').limit(limit).offset(offset).execute();
  return {
    schemas: [LIST_RESPONSE],
    totalResults: Number(total.n),
    startIndex: offset + 1,
    itemsPerPage: rows.length,
    Resources: rows.map((r) => userResource(r, c)),
  };
}
