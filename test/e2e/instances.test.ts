// Several `berth serve` processes on one database serve the same data: tokens
// and page tokens from one are accepted by the other, and a simultaneous first
// start creates one organization.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dropDatabase, freshDatabase, startBerth, usingPostgres } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';

describe('several instances on one database', () => {
  it('start together, create one organization and accept each other’s tokens and page tokens', async () => {
    const databaseUrl = await freshDatabase();
    const shared = mkdtempSync(join(tmpdir(), 'berth-shared-'));
    const publicUrl = 'http://berth.test';
    // On PostgreSQL each instance has its own data dir; on SQLite they share the file, and only the first serves
    // the registry (one --data serves one registry: a second would refuse to start, one-data-dir.test.ts).
    const dirs = usingPostgres() ? [mkdtempSync(join(tmpdir(), 'berth-a-')), mkdtempSync(join(tmpdir(), 'berth-b-'))] : [shared, shared];
    const started = await Promise.allSettled(
      dirs.map((dataDir, i) => startBerth({ databaseUrl, dataDir, publicUrl, extraArgs: i > 0 && !usingPostgres() ? ['--registry-listen', 'off'] : [] })),
    );
    const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (running.length < 2) {
      await Promise.all(running.map((r) => r.stop()));
      assert.fail(`an instance failed to start: ${started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok')).join(' | ')}`);
    }
    const [a, b] = running;
    try {
      const withCreds = dirs.filter((d) => existsSync(join(d, 'admin-credentials.json')));
      assert.equal(new Set(withCreds).size, 1, 'exactly one instance wrote owner credentials');
      const creds = join(withCreds[0], 'admin-credentials.json');
      const token = ownerToken(creds, a.url);
      const orgUid = (a.orgUid || b.orgUid) as string;

      const roots = await rest(b.url, 'GET', '/iam/v2/groups?uidp.in_root=true', { token });
      assert.equal(roots.status, 200, roots.text);
      assert.equal(roots.json.groups.length, 1, 'one organization');

      for (let i = 0; i < 7; i++) {
        const r = await rest(a.url, 'POST', `/registry/v2/repos/${roots.json.groups[0].uid ?? orgUid}`, { token, body: { name: `shared-${i}` } });
        assert.equal(r.status, 200, r.text);
      }
      const page1 = await rest(a.url, 'GET', '/registry/v2/repos?page_size=3&order_by=name', { token });
      const page2 = await rest(b.url, 'GET', `/registry/v2/repos?page_size=3&order_by=name&page_token=${encodeURIComponent(page1.json.nextPageToken)}`, {
        token,
      });
      assert.equal(page2.status, 200, page2.text);
      assert.deepEqual(
        page2.json.repos.map((r: { name: string }) => r.name),
        ['shared-3', 'shared-4', 'shared-5'],
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await dropDatabase(databaseUrl);
    }
  });

  it('finishes in-flight requests on SIGTERM and exits 0', async () => {
    const berth = await startBerth();
    const token = ownerToken(berth.credentialsFile);
    const inflight = Array.from({ length: 20 }, (_, i) =>
      rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: `drain-${i}` } }).catch(() => undefined),
    );
    const code = await berth.stop('SIGTERM');
    const results = await Promise.all(inflight);
    assert.equal(code, 0);
    for (const r of results) if (r) assert.ok(r.status === 200 || r.status === 503, `status ${r.status}`);
  });
});
