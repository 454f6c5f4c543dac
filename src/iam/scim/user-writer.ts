// Writes a provisioned user's row and makes its identity follow: the one path
// for SCIM creates, PUTs and PATCHes, inside the caller's transaction, with
// its audit entry.
// userName is unique per provider without regard to case (a 409 uniqueness
// otherwise); the identity is provisioned on a change to active and
// deprovisioned on a change to inactive (scim-provisioning.ts).
import { nowIso } from '../../core/clock.js';
import { isUniqueViolation } from '../../store/constraint-error.js';
import type { Tx } from '../../store/transact.js';
import type { ScimContext } from './scim-context.js';
import { auditScim } from './scim-audit.js';
import { scimUniqueness } from './scim-errors.js';
import { activateIdentity, deactivateIdentity } from './scim-provisioning.js';
import type { ScimUsersTable } from './scim-tables.js';
import type { UserFields } from './scim-user-resource.js';

async function userNameTaken(tx: Tx, providerUid: string, key: string, except: string | undefined): Promise<boolean> {
  let q = tx.selectFrom('scim_users').select('id').where('provider_uid', '=', providerUid).where('user_name_key', '=', key);
  if (except !== undefined) q = q.where('id', '!=', except);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Inserts (when `existing` is undefined) or rewrites the user; the row as stored. */
export async function writeUser(
  tx: Tx,
  c: Pick<ScimContext, 'provider' | 'address'>,
  id: string,
  subject: string,
  f: UserFields,
  existing?: ScimUsersTable,
): Promise<ScimUsersTable> {
  const provider = c.provider;
  const key = f.userName.toLowerCase();
  if (await userNameTaken(tx, provider.uid, key, existing?.id)) throw scimUniqueness(`userName ${JSON.stringify(f.userName)} is taken`);
  const now = nowIso();
  const row: ScimUsersTable = {
    provider_uid: provider.uid,
    id,
    user_name: f.userName,
    user_name_key: key,
    subject,
    external_id: f.externalId ?? null,
    display_name: f.displayName,
    active: f.active ? 1 : 0,
    resource: JSON.stringify(f.resource),
    token_groups: existing?.token_groups ?? '[]',
    version: (existing?.version ?? 0) + 1,
    create_time: existing?.create_time ?? now,
    update_time: now,
  };
  try {
    if (existing) {
      const { provider_uid: _p, id: _id, create_time: _c, ...changed } = row;
      await tx.updateTable('scim_users').set(changed).where('provider_uid', '=', provider.uid).where('id', '=', id).execute();
    } else await tx.insertInto('scim_users').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw scimUniqueness(`a user with this userName or externalId exists`);
    throw err;
  }
  if (f.active) await activateIdentity(tx, provider, id, subject, f);
  else if (!existing || existing.active === 1) await deactivateIdentity(tx, id);
  await auditScim(tx, c, existing ? 'Users.update' : 'Users.create', { id, name: f.userName });
  return row;
}
