// What one instance writes counts on the other's very next request: cached
// list totals and cached access are checked against the database's table
// versions on every request, never a time-bounded copy.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dropDatabase, freshDatabase, startBerth, usingPostgres } from '../harness/berth-process.js';
import { identityWithRole, ownerToken, rest } from '../harness/api-client.js';

describe('two instances on one database', () => {
  it('see each other’s writes in list totals and role bindings on the next request', async () => {
    const databaseUrl = await freshDatabase();
    const shared = mkdtempSync(join(tmpdir(), 'berth-shared-'));
    const publicUrl = 'http://berth.test';
    const a = await startBerth({ databaseUrl, dataDir: usingPostgres() ? mkdtempSync(join(tmpdir(), 'berth-a-')) : shared, publicUrl });
    // Sharing the SQLite file, only one of them serves the registry (one --data serves one registry).
    const b = usingPostgres()
      ? await startBerth({ databaseUrl, dataDir: mkdtempSync(join(tmpdir(), 'berth-b-')), publicUrl })
      : await startBerth({ databaseUrl, dataDir: shared, publicUrl, extraArgs: ['--registry-listen', 'off'] });
    try {
      const token = ownerToken(a.credentialsFile, a.url);
      const org = a.orgUid;
      const total = async () => {
        const r = await rest(b.url, 'GET', '/registry/v2/repos?page_size=1&order_by=name', { token });
        assert.equal(r.status, 200, r.text);
        return r.json.totalCount as string;
      };
      assert.equal(await total(), '0');
      assert.equal(await total(), '0'); // now cached on b
      assert.equal((await rest(a.url, 'POST', `/registry/v2/repos/${org}`, { token, body: { name: 'from-a' } })).status, 200);
      assert.equal(await total(), '1');

      const viewer = await identityWithRole(a.url, token, org, 'viewer', org, publicUrl);
      const list = () => rest(b.url, 'GET', '/registry/v2/repos?order_by=name', { token: viewer.token });
      assert.equal((await list()).json.totalCount, '1');
      const bindings = await rest(a.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(viewer.uid)}`, { token });
      for (const rb of bindings.json.roleBindings as Array<{ uid: string }>) {
        assert.equal((await rest(a.url, 'DELETE', `/iam/v2/roleBindings/${rb.uid}`, { token })).status, 200);
      }
      const after = await list();
      assert.equal(after.status, 200, after.text);
      assert.equal(after.json.totalCount, '0', 'the deleted binding no longer shows anything');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await dropDatabase(databaseUrl);
    }
  });
});
