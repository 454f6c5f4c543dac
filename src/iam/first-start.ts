// First start: on an empty database create the root organization and an owner
// identity with static keys, and hand the keys to the operator in a 0600 file.
// The settings row "bootstrap" is claimed in the same transaction, so two
// instances starting together on one PostgreSQL create one organization.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { BUILTIN_ROLES, builtinRoleByName } from '../auth/builtin-roles.js';
import { nowIso } from '../core/clock.js';
import { newChildUid, newRootUid } from '../core/uidp.js';
import type { Store } from '../store/store.js';
import { storeRelationship } from './identities/relationship.js';
import { create } from '@bufbuild/protobuf';
import { Identity_StaticKeysSchema } from '../gen/berth/iam/v2/identities_pb.js';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';

export interface FirstStartResult {
  organization: { uid: string; name: string };
  identity: string;
  credentialsFile?: string;
}

const STATIC_ISSUER = 'berth:static-keys';
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** Keeps the built-in roles in the database identical to the code. */
export async function syncBuiltinRoles(store: Store): Promise<void> {
  const now = nowIso();
  for (const r of BUILTIN_ROLES) {
    await store.db
      .insertInto('roles')
      .values({ uid: r.uid, parent_uid: '', name: r.name, description: r.description, capabilities: JSON.stringify(r.capabilities), builtin: 1, create_time: now, update_time: now })
      .onConflict((oc) => oc.column('uid').doUpdateSet({ name: r.name, description: r.description, capabilities: JSON.stringify(r.capabilities), builtin: 1 }))
      .execute();
  }
}

export async function firstStart(store: Store, orgName: string, dataDir: string, apiUrl: string): Promise<FirstStartResult | undefined> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'admin';
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256' };
  const orgUid = newRootUid();
  const identityUid = newChildUid(orgUid);
  const subject = `owner@${orgName}`;
  const won = await store.db.transaction().execute(async (trx) => {
    const claim = await trx
      .insertInto('settings')
      .values({ key: 'bootstrap', value: orgUid })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claim) return false;
    const now = nowIso();
    await trx.insertInto('groups').values({ uid: orgUid, parent_uid: '', name: orgName, description: 'Root organization group', verified: 0, create_time: now, update_time: now }).execute();
    const keys = create(Identity_StaticKeysSchema, {
      issuer: STATIC_ISSUER,
      subject,
      issuerKeys: JSON.stringify({ keys: [publicJwk] }),
      expirationTime: timestampFromMs(Date.now() + YEAR_MS),
    });
    await trx
      .insertInto('identities')
      .values({ uid: identityUid, parent_uid: orgUid, name: 'owner', description: 'Created on first start', company: '', email: '', last_seen_time: now, create_time: now, update_time: now, ...storeRelationship({ case: 'staticKeys', value: keys }) })
      .execute();
    const owner = builtinRoleByName('owner')!;
    await trx.insertInto('role_bindings').values({ uid: newChildUid(orgUid), parent_uid: orgUid, identity_uid: identityUid, role_uid: owner.uid, create_time: now, update_time: now }).execute();
    return true;
  });
  if (!won) return undefined;
  const credentials = { api: apiUrl, identity: identityUid, issuer: STATIC_ISSUER, subject, privateKey: privateJwk, organization: { uid: orgUid, name: orgName } };
  const file = join(dataDir, 'admin-credentials.json');
  try {
    writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return { organization: { uid: orgUid, name: orgName }, identity: identityUid, credentialsFile: file };
  } catch {
    return { organization: { uid: orgUid, name: orgName }, identity: identityUid }; // never overwrite
  }
}
