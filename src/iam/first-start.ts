// First start: on an empty database create the root organization and an owner
// identity with static keys, and hand the keys to the operator in a 0600 file.
// All or nothing: the settings row "bootstrap" is claimed, the rows written and
// the file written in one transaction, so two instances starting together on
// one PostgreSQL create one organization, and a start that fails anywhere
// leaves neither an organization without keys nor keys without one.
import { transact } from '../store/transact.js';
import { join } from 'node:path';
import { BUILTIN_ROLES, type BuiltinRole } from './roles/builtin-roles.js';
import { nowIso } from '../core/clock.js';
import { newRootUid } from '../core/uidp.js';
import type { Store } from '../store/store.js';
import type { Tx } from '../store/transact.js';
import { writeGroup } from './groups/group-writer.js';
import { insertOwner, newOwnerKeys, removeCredentialsFile, writeCredentialsFile } from './owner-credentials.js';

export interface FirstStartResult {
  organization: { uid: string; name: string };
  identity: string;
  credentialsFile: string;
  /** Where an older credentials file of the same name was moved. */
  movedAside?: string;
}

export const CREDENTIALS_FILE = 'admin-credentials.json';

/** Keeps the built-in roles in the database identical to the code. */
export async function syncBuiltinRoles(store: Store): Promise<void> {
  const now = nowIso();
  await transact(store, async (tx) => {
    for (const r of BUILTIN_ROLES) await upsertBuiltin(tx, r, now);
  });
}

async function upsertBuiltin(tx: Tx, r: BuiltinRole, now: string): Promise<void> {
  const capabilities = JSON.stringify(r.capabilities);
  await tx
    .insertInto('roles')
    .values({ uid: r.uid, parent_uid: null, name: r.name, description: r.description, capabilities, builtin: 1, create_time: now, update_time: now })
    .onConflict((oc) => oc.column('uid').doUpdateSet({ name: r.name, description: r.description, capabilities, builtin: 1 }))
    .execute();
}

export async function firstStart(store: Store, orgName: string, dataDir: string, apiUrl: string): Promise<FirstStartResult | undefined> {
  const keys = await newOwnerKeys();
  const org = { uid: newRootUid(), name: orgName };
  const file = join(dataDir, CREDENTIALS_FILE);
  let written: { movedAside?: string } | undefined;
  try {
    return await transact(store, async (tx) => {
      const claim = await tx
        .insertInto('settings')
        .values({ key: 'bootstrap', value: org.uid })
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claim) return undefined;
      await writeGroup(tx, { parent: '', name: orgName, description: 'Root organization group', uid: org.uid }, 'first-start');
      const creds = await insertOwner(tx, org, keys, `owner@${orgName}`, 'Created on first start', apiUrl);
      const out = writeCredentialsFile(dataDir, file, creds);
      written = out;
      return { organization: org, identity: creds.identity, credentialsFile: out.file, movedAside: out.movedAside };
    });
  } catch (err) {
    if (written) removeCredentialsFile(file, written.movedAside); // the commit failed: these keys open nothing
    throw err;
  }
}
