// Scan jobs across restarts: images stored before scanning existed are
// inventoried by the backfill when the server starts, and a scan cut short by
// kill -9 finishes after a restart (its lease runs out and it is retaken).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { dropDatabase, freshDatabase, startBerth } from '../harness/berth-process.js';
import { OCI_MANIFEST, writeImage } from '../harness/oci-layout.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { openBerthStore, seedImage } from '../harness/registry-content.js';
import { RepoClient } from '../harness/registry-gc.js';
import { alpineLayers, sbomPath, waitForSbom } from '../harness/scan-images.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));

describe('scan jobs across restarts', { skip: skopeoMissing }, () => {
  it('inventories images stored before scanning existed when the server starts (backfill)', async () => {
    const dataDir = tmp('backfill');
    const databaseUrl = await freshDatabase();
    try {
      let berth = await startBerth({ dataDir, databaseUrl });
      let owner: string;
      let repo: Awaited<ReturnType<typeof rest>>;
      try {
        owner = ownerToken(berth.credentialsFile, berth.url);
        repo = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token: owner, body: { name: 'old/app' } });
        assert.equal(repo.status, 200, repo.text);
      } finally {
        await berth.stop();
      }
      // Written as an older Berth would have: records only, no scan job.
      const seeded = await seedImage({ dataDir, databaseUrl }, repo.json.uid, { layers: [100, 200] });
      const store = await openBerthStore({ dataDir, databaseUrl });
      const jobs = await store.db.selectFrom('scan_jobs').selectAll().execute();
      await store.close();
      assert.deepEqual(jobs, []);

      berth = await startBerth({ dataDir, databaseUrl });
      try {
        owner = ownerToken(berth.credentialsFile, berth.url);
        const sbom = await waitForSbom(berth.url, owner, repo.json.uid, seeded);
        assert.deepEqual(sbom.json.packages ?? [], []); // its layers' bytes were never stored: nothing to read, and it says so (below)
        const again = await rest(berth.url, 'GET', sbomPath(repo.json.uid, seeded), { token: owner });
        assert.equal(again.status, 200);
      } finally {
        await berth.stop();
      }
      const after = await openBerthStore({ dataDir, databaseUrl });
      const inv = await after.db.selectFrom('scan_inventories').selectAll().where('digest', '=', seeded).executeTakeFirstOrThrow();
      await after.close();
      assert.equal(inv.status, 'partial');
      assert.equal(inv.skipped_count, 2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(databaseUrl);
    }
  });

  it('finishes a scan cut short by kill -9 after a restart', { timeout: 300_000 }, async () => {
    const dataDir = tmp('kill');
    const databaseUrl = await freshDatabase();
    const layout = tmp('big');
    try {
      let berth = await startBerth({ dataDir, databaseUrl });
      let image: Awaited<ReturnType<typeof writeImage>>;
      let repoUid: string;
      let variant: string;
      try {
        const host = registryHost(berth);
        image = await writeImage(layout, 'big', {
          fileLayers: [
            ...alpineLayers([{ name: 'musl', version: '1.2.5-r0' }]),
            { 'opt/big-1.bin': { randomBytes: 200 << 20 } },
            { 'opt/big-2.bin': { randomBytes: 200 << 20 } },
          ],
        });
        const pushed = await skopeo([
          'copy',
          '--preserve-digests',
          ...creds('dest', '_token', cliToken(berth, host).token),
          `oci:${layout}:big`,
          `docker://${host}/${berth.orgName}/scan/big:big`,
        ]);
        assert.equal(pushed.code, 0, pushed.stderr);
        const owner = ownerToken(berth.credentialsFile, berth.url);
        const list = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}&page_size=100`, { token: owner });
        repoUid = list.json.repos.find((r: { name: string }) => r.name === 'scan/big').uid as string;
        await waitForSbom(berth.url, owner, repoUid, image.manifest.digest);

        // The same layers under a new manifest digest (an annotation added): its scan starts the
        // moment the put commits, so polling from the 201 on catches it running.
        const client = await RepoClient.open(berth, 'scan/big');
        const body = JSON.parse((await client.send('GET', `/v2/${client.name}/manifests/big`, undefined, { accept: OCI_MANIFEST })).text);
        variant = await client.putManifest('big-variant', { ...body, annotations: { 'org.example.variant': '1' } });
        let seen = '';
        const end = Date.now() + 30_000;
        while (Date.now() < end && !/ is running/.test(seen)) {
          const r = await rest(berth.url, 'GET', sbomPath(repoUid, variant), { token: owner });
          assert.equal(r.status, 503, `the scan must still be in progress: ${r.text}`);
          seen = r.json?.message ?? '';
        }
        assert.match(seen, / is running/);
      } finally {
        // kill -9 where it stands (the scan in flight, or whatever failed above).
        const exited = new Promise((res) => berth.process.once('exit', res));
        berth.process.kill('SIGKILL');
        await exited;
      }

      berth = await startBerth({ dataDir, databaseUrl });
      try {
        const owner = ownerToken(berth.credentialsFile, berth.url);
        const sbom = await waitForSbom(berth.url, owner, repoUid, variant, () => true, 120_000);
        assert.deepEqual(
          sbom.json.packages.map((p: { name: string }) => p.name),
          ['musl'],
        );
      } finally {
        await berth.stop();
      }
      const store = await openBerthStore({ dataDir, databaseUrl });
      const job = await store.db.selectFrom('scan_jobs').selectAll().where('digest', '=', variant).executeTakeFirstOrThrow();
      await store.close();
      assert.equal(job.status, 'done');
      assert.ok(job.attempts >= 2, `the killed run counts: ${job.attempts}`);
      assert.equal(job.layers_done, 3);
      assert.ok(Number(job.bytes_read) > 400 << 20);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(layout, { recursive: true, force: true });
      await dropDatabase(databaseUrl);
    }
  });
});
