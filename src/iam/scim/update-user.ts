// PUT /Users/{id} (RFC 7644 §3.5.1: the resource replaced whole) and PATCH
// /Users/{id} (§3.5.2: operations on the stored resource, then checked as a
// PUT would be). The id and the identity's subject do not change; a change
// of `active` provisions or deprovisions the identity (user-writer.ts).
import { capabilitiesOf } from '../../store/db-capabilities.js';
import { transact, type Tx } from '../../store/transact.js';
import type { ScimContext } from './scim-context.js';
import { scimNotFound } from './scim-errors.js';
import type { Json } from './scim-json.js';
import { applyPatch, patchOperations } from './scim-patch.js';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from './scim-schemas.js';
import type { ScimUsersTable } from './scim-tables.js';
import { userFields, userResource } from './scim-user-resource.js';
import { writeUser } from './user-writer.js';

async function lockedUser(tx: Tx, c: ScimContext, id: string): Promise<ScimUsersTable> {
  const q = tx.selectFrom('scim_users').selectAll().where('provider_uid', '=', c.provider.uid).where('id', '=', id);
  const row = await capabilitiesOf(tx).lockRows(q, 'exclusive').executeTakeFirst();
  if (!row) throw scimNotFound('User', id);
  return row;
}

export async function replaceUser(c: ScimContext, id: string, body: unknown): Promise<Json> {
  const f = userFields(body);
  const row = await transact(c.store, async (tx) => {
    const existing = await lockedUser(tx, c, id);
    return writeUser(tx, c, id, existing.subject, f, existing);
  });
  return userResource(row, c);
}

export async function patchUser(c: ScimContext, id: string, body: unknown): Promise<Json> {
  const ops = patchOperations(body);
  const row = await transact(c.store, async (tx) => {
    const existing = await lockedUser(tx, c, id);
    const current = { ...(JSON.parse(existing.resource) as Json), active: existing.active === 1 };
    const f = userFields(applyPatch(current, ops, USER_SCHEMA, [ENTERPRISE_USER_SCHEMA]));
    return writeUser(tx, c, id, existing.subject, f, existing);
  });
  return userResource(row, c);
}
