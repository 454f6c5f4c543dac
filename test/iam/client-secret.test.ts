// The client secret at rest, read back the way the sign-in flow will: sealed
// with the secrets key and bound to its provider, opened only with that key.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { secretsKeyFrom } from '../../src/auth/secret-sealing.js';
import { newChildUid, newRootUid } from '../../src/core/uidp.js';
import { readClientSecret, sealClientSecret } from '../../src/iam/identity-providers/client-secret.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';

const T0 = '2024-01-01T00:00:00.000Z';
const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

describe('identity provider client secrets at rest', () => {
  let store: Store;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let org: string;
  const key = secretsKeyFrom(randomBytes(32).toString('base64'));
  const otherKey = secretsKeyFrom(randomBytes(32).toString('base64'));

  async function provider(stored: (uid: string) => string): Promise<string> {
    const uid = newChildUid(org);
    await transact(store, (tx) =>
      tx
        .insertInto('identity_providers')
        .values({
          uid,
          parent_uid: org,
          name: 'sso',
          description: '',
          default_role_uid: VIEWER_UID,
          issuer: 'https://idp.example.com',
          client_id: 'berth',
          client_secret: stored(uid),
          additional_scopes: '[]',
          groups_claim: '',
          pkce_enabled: 0,
          create_time: T0,
          update_time: T0,
        })
        .execute(),
    );
    return uid;
  }

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'berth-secret-'));
    databaseUrl = await freshDatabase();
    store = await openStore({ dataDir, databaseUrl });
    org = newRootUid();
    await transact(store, async (tx) => {
      await tx
        .insertInto('groups')
        .values({ uid: org, parent_uid: null, name: 'secret.test', description: '', verified: 0, create_time: T0, update_time: T0 })
        .execute();
      await tx
        .insertInto('roles')
        .values({ uid: VIEWER_UID, parent_uid: null, name: 'viewer', description: '', capabilities: '[]', builtin: 1, create_time: T0, update_time: T0 })
        .execute();
    });
  });
  after(async () => {
    await store.close();
    await dropDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens only with the key it was sealed with, and only for its own provider', async () => {
    const uid = await provider((u) => sealClientSecret(key, u, 'the-secret'));
    const stored = (await store.db.selectFrom('identity_providers').select('client_secret').where('uid', '=', uid).executeTakeFirstOrThrow()).client_secret;
    assert.match(stored, /^sealed:v1:/);
    assert.ok(!stored.includes('the-secret'));
    assert.equal(await readClientSecret(store.db, key, uid), 'the-secret');
    assert.equal(await readClientSecret(store.db, otherKey, uid), undefined);
    assert.equal(await readClientSecret(store.db, undefined, uid), undefined);
    // The same sealed value copied onto another provider does not open there.
    const copy = await provider(() => stored);
    assert.equal(await readClientSecret(store.db, key, copy), undefined);
  });

  it('reads a public client as no secret, and refuses to seal without a key', async () => {
    const uid = await provider(() => '');
    assert.equal(await readClientSecret(store.db, undefined, uid), '');
    assert.throws(() => sealClientSecret(undefined, uid, 'x'), /secrets-key-file/);
    assert.equal(sealClientSecret(undefined, uid, ''), '');
    await assert.rejects(readClientSecret(store.db, key, `${org}/0000000000000000`), /not found|NotFound|IdentityProvider/i);
  });
});
