// berth admin secrets-key change, on a stopped server's database (SQLite, or
// PostgreSQL with BERTH_TEST_PG): everything sealed with the old key is
// sealed with the new one, so the server starts with the new key (and no
// longer with the old), webhooks are still signed with the subscription's
// secret, and the identity provider's client secret opens with the new key.
// A wrong current key changes nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { secretsKeyFrom } from '../../src/auth/secret-sealing.js';
import { openClientSecret } from '../../src/iam/identity-providers/client-secret.js';
import { openStore } from '../../src/store/store.js';
import { ownerToken, rest } from '../harness/api-client.js';
import { type Berth, dropDatabase, freshDatabase, startBerth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { newSigningSecret } from '../harness/event-setup.js';

const OLD_KEY = 'the-old-secrets-key-0123456789abcdefghij';
const NEW_KEY = 'the-new-secrets-key-0123456789abcdefghij';
/** The built-in viewer role (every organization has it). */
const VIEWER_ROLE = '63921b2c44617e3f2603851537be0123af4a57d7';

describe('berth admin secrets-key change', () => {
  it('re-seals the signing keys, client secrets and webhook secrets with the new key, in one transaction', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-reseal-'));
    const databaseUrl = await freshDatabase();
    const where = ['--data', dataDir, ...(databaseUrl ? ['--database', databaseUrl] : [])];
    const start = (key: string) =>
      startBerth({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), env: { BERTH_SECRETS_KEY: key }, extraArgs: ['--allow-insecure-sinks'] });
    let berth: Berth | undefined;
    let receiver: EventReceiver | undefined;
    try {
      berth = await start(OLD_KEY);
      let owner = ownerToken(berth.credentialsFile, berth.url);
      receiver = await EventReceiver.start(berth.url);
      const secret = newSigningSecret();
      const org = berth.orgUid;
      const sub = await rest(berth.url, 'POST', `/events/v2/subscriptions/${org}`, {
        token: owner,
        body: { sink: receiver.sink('org', { group: org, secret }), signingSecret: secret },
      });
      assert.equal(sub.status, 200, sub.text);
      const idp = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${org}`, {
        token: owner,
        body: { name: 'sso', defaultRole: VIEWER_ROLE, oidc: { issuer: 'https://idp.example.com', clientId: 'berth', clientSecret: 'the-client-secret' } },
      });
      assert.equal(idp.status, 200, idp.text);
      // Nothing left to deliver when it stops: the restarted server (another URL) delivers only what follows.
      await receiver.waitFor('the event of the provider', () => receiver!.deliveredTo('org').some((r) => r.subject === idp.json.uid));
      await berth.stop();

      const keyFile = (name: string, text: string) => {
        const file = join(dataDir, name);
        writeFileSync(file, `${text}\n`, { mode: 0o600 });
        return file;
      };
      const change = (current: string) =>
        berthCli(['admin', 'secrets-key', 'change', ...where, '--new-key-file', keyFile('new-key', NEW_KEY)], {
          env: { ...process.env, BERTH_SECRETS_KEY: current },
        });
      const wrong = await change('not-the-secrets-key-0123456789abcdefghij');
      assert.notEqual(wrong.code, 0);
      assert.match(wrong.stderr, /the signing key \S+ is sealed with another secrets key than the current one given .*nothing was changed/);

      const changed = await change(OLD_KEY);
      assert.equal(changed.code, 0, changed.stderr);
      assert.match(changed.stderr, /1 signing key\(s\), 1 identity provider client secret\(s\), 1 event subscription signing secret\(s\)/);

      await assert.rejects(start(OLD_KEY), /the secrets key does not decrypt the signing keys/);
      berth = await start(NEW_KEY);
      owner = ownerToken(berth.credentialsFile, berth.url); // the restarted server listens on another port
      receiver.acceptIssuers([berth.url]);
      const folder = await rest(berth.url, 'POST', `/iam/v2/groups/${org}`, { token: owner, body: { name: 'after-the-change' } });
      assert.equal(folder.status, 200, folder.text);
      await receiver.waitFor('the event of the new folder', () => receiver!.deliveredTo('org').some((r) => r.subject === folder.json.uid));
      assert.deepEqual(receiver.problems(), [], 'the delivery verifies: token, digest and the signature with the subscription secret');
      const delivered = receiver.deliveredTo('org').find((r) => r.subject === folder.json.uid);
      assert.ok(delivered?.headers['webhook-signature'], 'signed');

      await berth.stop();
      const store = await openStore({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
      try {
        const row = await store.db.selectFrom('identity_providers').select(['uid', 'client_secret']).where('uid', '=', idp.json.uid).executeTakeFirstOrThrow();
        assert.equal(openClientSecret(secretsKeyFrom(NEW_KEY), row.uid, row.client_secret), 'the-client-secret');
        assert.equal(openClientSecret(secretsKeyFrom(OLD_KEY), row.uid, row.client_secret), undefined);
      } finally {
        await store.close();
      }
    } finally {
      await berth?.stop();
      await receiver?.close();
      await dropDatabase(databaseUrl);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
