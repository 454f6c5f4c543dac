// With a secrets key (--secrets-key-file or BERTH_SECRETS_KEY) the issuer's
// private signing keys are stored encrypted: a copy of the database does not
// reveal them, tokens survive a restart with the same key, and a different
// key stops the server at start with a message saying so.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { dropDatabase, freshDatabase, startBerth, type StartOptions } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';

const PUBLIC_URL = 'http://berth.test';

function keyFile(dir: string, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  return file;
}

/** signing_keys.private_jwk as stored, read straight from the database. */
async function storedPrivateKeys(dataDir: string, databaseUrl: string | undefined): Promise<string[]> {
  if (databaseUrl) {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      return (await c.query<{ private_jwk: string }>('select private_jwk from signing_keys')).rows.map((r) => r.private_jwk);
    } finally {
      await c.end();
    }
  }
  const db = new DatabaseSync(join(dataDir, 'berth.db'), { readOnly: true });
  try {
    return db
      .prepare('select private_jwk from signing_keys')
      .all()
      .map((r) => String(r.private_jwk));
  } finally {
    db.close();
  }
}

async function withSetup(fn: (o: { dataDir: string; databaseUrl: string | undefined; keys: string }) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-sealed-'));
  const keys = mkdtempSync(join(tmpdir(), 'berth-keys-'));
  const databaseUrl = await freshDatabase();
  try {
    await fn({ dataDir, databaseUrl, keys });
  } finally {
    await dropDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(keys, { recursive: true, force: true });
  }
}

function assertSealed(stored: string[]) {
  assert.ok(stored.length > 0);
  for (const s of stored) {
    assert.doesNotMatch(s, /"d"|"kty"|"p"\s*:/, 'no plaintext JWK member is stored');
    assert.throws(() => JSON.parse(s), 'the stored value is not a JWK');
  }
}

describe('signing keys encrypted with a secrets key', () => {
  it('stores no plaintext private key, and tokens still work after a restart with the same key', () =>
    withSetup(async ({ dataDir, databaseUrl, keys }) => {
      // One public URL for both runs, so a token from the first run is addressed to the second.
      const opts: StartOptions = { dataDir, databaseUrl, publicUrl: PUBLIC_URL, extraArgs: ['--secrets-key-file', keyFile(keys, 'a.key')] };
      let berth = await startBerth(opts);
      const token = ownerToken(berth.credentialsFile, berth.url);
      try {
        assert.equal((await rest(berth.url, 'GET', '/iam/v2/groups', { token })).status, 200);
        assertSealed(await storedPrivateKeys(dataDir, databaseUrl));
      } finally {
        await berth.stop();
      }
      berth = await startBerth(opts);
      try {
        const again = await rest(berth.url, 'GET', '/iam/v2/groups', { token });
        assert.equal(again.status, 200, `a token from before the restart is accepted: ${again.text}`);
        const fresh = await rest(berth.url, 'GET', '/iam/v2/groups', { token: ownerToken(berth.credentialsFile, berth.url) });
        assert.equal(fresh.status, 200, fresh.text);
      } finally {
        await berth.stop();
      }
    }));

  it('encrypts keys stored in plaintext by an earlier start without a key, also when the key comes from BERTH_SECRETS_KEY', () =>
    withSetup(async ({ dataDir, databaseUrl }) => {
      let berth = await startBerth({ dataDir, databaseUrl, publicUrl: PUBLIC_URL });
      const token = ownerToken(berth.credentialsFile, berth.url);
      await berth.stop();
      assert.match((await storedPrivateKeys(dataDir, databaseUrl))[0], /"d"/, 'stored in plaintext without a key');

      process.env.BERTH_SECRETS_KEY = randomBytes(32).toString('base64');
      try {
        berth = await startBerth({ dataDir, databaseUrl, publicUrl: PUBLIC_URL }); // the child inherits the variable
      } finally {
        delete process.env.BERTH_SECRETS_KEY;
      }
      try {
        assertSealed(await storedPrivateKeys(dataDir, databaseUrl));
        assert.equal((await rest(berth.url, 'GET', '/iam/v2/groups', { token })).status, 200);
      } finally {
        await berth.stop();
      }
    }));

  it('refuses to start with a different key, or with none, and says why', () =>
    withSetup(async ({ dataDir, databaseUrl, keys }) => {
      const berth = await startBerth({ dataDir, databaseUrl, extraArgs: ['--secrets-key-file', keyFile(keys, 'a.key')] });
      await berth.stop();
      await assert.rejects(
        startBerth({ dataDir, databaseUrl, extraArgs: ['--secrets-key-file', keyFile(keys, 'b.key')] }),
        /exited with 1[\s\S]*the secrets key does not decrypt the signing keys/,
      );
      await assert.rejects(startBerth({ dataDir, databaseUrl }), /exited with 1[\s\S]*signing keys in the database are encrypted/);
    }));
});
