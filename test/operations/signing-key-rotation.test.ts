// berth admin signing-keys against a running server (SQLite, or PostgreSQL
// with BERTH_TEST_PG), its keys sealed with a secrets key: a rotation makes
// the running server sign with the new key within its reload interval while
// the old key's tokens and refresh tokens keep working; retiring the old key
// stops them; the last live key cannot be retired, and a rotation without the
// secrets key writes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JWK } from 'jose';
import { exchangeStaticTokens, readJson, rest } from '../harness/api-client.js';
import { startBerth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';

const SECRETS_KEY = 'rotation-test-secrets-key-0123456789abcdef';

const kidOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('berth admin signing-keys', () => {
  it('rotates to a new signing key on a running server, keeps the old one verifying until it is retired, and never retires the last', async () => {
    const berth = await startBerth({ env: { BERTH_SECRETS_KEY: SECRETS_KEY } });
    try {
      const where = ['--data', berth.dataDir, ...(berth.databaseUrl ? ['--database', berth.databaseUrl] : [])];
      const withKey = { env: { ...process.env, BERTH_SECRETS_KEY: SECRETS_KEY } };
      const withoutKey = { env: { ...process.env, BERTH_SECRETS_KEY: '' } };
      const keysCli = (args: string[], opts = withKey) => berthCli(['admin', 'signing-keys', ...args, ...where], opts);
      const list = async () => {
        const r = await keysCli(['list', '-o', 'json']);
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as { kid: string; role: string; sealed: boolean; retireTime?: string }[];
      };
      const creds = readJson(berth.credentialsFile) as { identity: string; issuer: string; subject: string; privateKey: JWK };
      const exchange = () => exchangeStaticTokens(berth.url, creds.identity, creds.issuer, creds.subject, creds.privateKey);
      const works = async (token: string) => (await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).status;
      const refresh = async (rt: string) =>
        (await fetch(`${berth.url}/sts/exchange_refresh_token`, { method: 'POST', headers: { authorization: `Bearer ${rt}` } })).status;
      const jwksKids = async () => ((await rest(berth.url, 'GET', '/.well-known/jwks.json')).json.keys as { kid: string }[]).map((k) => k.kid).sort();

      const [old1, old2] = [await exchange(), await exchange()];
      const k1 = kidOf(old1.token);
      assert.deepEqual(
        (await list()).map((k) => [k.kid, k.role, k.sealed, k.retireTime]),
        [[k1, 'signing', true, undefined]],
      );

      const refused = await keysCli(['rotate'], withoutKey);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /encrypted: start berth with the same --secrets-key-file or BERTH_SECRETS_KEY/);
      assert.equal((await list()).length, 1, 'a refused rotation wrote nothing');

      const rotated = await keysCli(['rotate']);
      assert.equal(rotated.code, 0, rotated.stderr);
      const k2 = rotated.stdout.trim();
      assert.notEqual(k2, k1);
      assert.match(rotated.stderr, new RegExp(`${k1} verifies until `));
      const keys = await list();
      assert.deepEqual(
        keys.map((k) => [k.kid, k.role, k.sealed]),
        [
          [k1, 'verifying', true],
          [k2, 'signing', true],
        ],
      );
      const retires = Date.parse(keys[0].retireTime ?? '');
      assert.ok(Math.abs(retires - (Date.now() + 7 * 86_400_000)) < 600_000, `the old key verifies 7 more days by default: ${keys[0].retireTime}`);

      // The running server takes the new key up without a restart.
      const fresh = await eventually('the server signs with the new key', async () => {
        const t = await exchange();
        return kidOf(t.token) === k2 ? t : undefined;
      });
      assert.deepEqual(await jwksKids(), [k1, k2].sort());
      assert.equal(await works(fresh.token), 200);
      assert.equal(await works(old1.token), 200, 'a token of the old key still verifies');
      assert.equal(await refresh(old1.refreshToken), 200, 'a refresh token sealed before the rotation still opens');

      const unknown = await keysCli(['retire', 'no-such-key']);
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stderr, /no live signing key has the id "no-such-key"/);
      const oversize = await keysCli(['retire', 'k'.repeat(200)]);
      assert.notEqual(oversize.code, 0);
      assert.match(oversize.stderr, /a key id is 1 to 128 characters without NUL/);
      const retired = await keysCli(['retire', k1]);
      assert.equal(retired.code, 0, retired.stderr);
      await eventually('the old key is no longer accepted', async () => ((await works(old1.token)) === 401 ? true : undefined));
      assert.deepEqual(await jwksKids(), [k2]);
      assert.equal(await refresh(old2.refreshToken), 401, "the retired key's refresh tokens are refused");
      assert.equal(await works(fresh.token), 200);
      assert.deepEqual(
        (await list()).map((k) => [k.kid, k.role]),
        [[k2, 'signing']],
      );

      const last = await keysCli(['retire', k2]);
      assert.notEqual(last.code, 0);
      assert.match(last.stderr, /is the only live signing key: run `berth admin signing-keys rotate` first/);
      assert.equal(await works(fresh.token), 200);
    } finally {
      await berth.stop();
    }
  });
});
