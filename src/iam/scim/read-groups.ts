// GET /Groups/{id} and GET /Groups (RFC 7644 §3.4): filtered by
// `displayName eq`, `externalId eq` or `id eq`, paged in id order;
// `excludedAttributes=members` leaves the members out (Entra ID asks so).
import type { ScimContext } from './scim-context.js';
import { scimNotFound } from './scim-errors.js';
import { eqFilter, paging } from './scim-filter.js';
import { groupResource } from './group-resource.js';
import { membersOf } from './group-members.js';
import type { Json } from './scim-json.js';
import { GROUP_SCHEMA, LIST_RESPONSE, SCIM_LIMITS } from './scim-schemas.js';
import type { ListQuery } from './read-users.js';

/** Whether the attributes and excludedAttributes parameters leave members out. */
export function membersWanted(q: { attributes?: string; excludedAttributes?: string }): boolean {
  const names = (v: string | undefined) => (v ?? '').split(',').map((a) => a.trim().toLowerCase());
  if (names(q.excludedAttributes).includes('members')) return false;
  if (q.attributes && !names(q.attributes).includes('members')) return false;
  return true;
}

export async function getGroup(c: ScimContext, id: string, withMembers: boolean): Promise<Json> {
  const row = await c.store.db.selectFrom('scim_groups').selectAll().where('provider_uid', '=', c.provider.uid).where('id', '=', id).executeTakeFirst();
  if (!row) throw scimNotFound('Group', id);
  const members = withMembers ? (await membersOf(c.store.db, c.provider.uid, [id])).get(id) : undefined;
  return groupResource(row, members, c.base);
}

export async function listGroups(c: ScimContext, q: ListQuery, withMembers: boolean): Promise<Json> {
  const f = eqFilter(q.filter, GROUP_SCHEMA, ['displayName', 'externalId', 'id']);
  const { offset, limit } = paging(q.startIndex, q.count, SCIM_LIMITS.pageSize);
  let base = c.store.db.selectFrom('scim_groups').where('provider_uid', '=', c.provider.uid);
  if (f?.attr === 'displayName') base = base.where('display_name', '=', f.value);
  else if (f?.attr === 'externalId') base = base.where('external_id', '=', f.value);
  else if (f?.attr === 'id') base = base.where('id', '=', f.value);
  const total = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  const rows = limit === 0 ? [] : await base.selectAll().orderBy('id').limit(limit).offset(offset).execute();
  const members = withMembers
    ? await membersOf(
        c.store.db,
        c.provider.uid,
        rows.map((r) => r.id),
      )
    : undefined;
  return {
    schemas: [LIST_RESPONSE],
    totalResults: Number(total.n),
    startIndex: offset + 1,
    itemsPerPage: rows.length,
    Resources: rows.map((r) => groupResource(r, members?.get(r.id), c.base)),
  };
}
