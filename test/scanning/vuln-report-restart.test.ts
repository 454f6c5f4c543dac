// Berth's reports at size and across kill -9: an image with 10,000 apk
// packages, 5,000 of them named by advisories, gets a report of 5,000
// matches; an import that adds an advisory for one of its packages is
// followed at once by kill -9 of Berth (its advisory follower may be in the
// middle of that change's step), and after a restart the report holds the new
// match, spliced in (5,001 matches, the next generation) without matching the
// image whole again. SQLite, or PostgreSQL with BERTH_TEST_PG.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { type Berth, dropDatabase, freshDatabase, startBerth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { writeImage } from '../harness/oci-layout.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { openBerthStore } from '../harness/registry-content.js';
import { alpineLayers } from '../harness/scan-images.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';
import { generationOf, matchSummary, waitForVulnReport } from '../harness/vuln-report-wait.js';

const PACKAGES = 10_000;
const ADVISED = 5_000;
const name = (i: number) => `pkg-${String(i).padStart(5, '0')}`;

function secdb(packages: Record<string, Record<string, string[]>>): string {
  return JSON.stringify({ archs: ['x86_64'], reponame: 'main', packages: Object.entries(packages).map(([n, secfixes]) => ({ pkg: { name: n, secfixes } })) });
}

describe("Berth's reports at size and across kill -9", { skip: skopeoMissing }, () => {
  it('reports 5,000 matches of a 10,000-package image, and splices a new match in after kill -9 and a restart', { timeout: 600_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'berth-vulnreport-kill-'));
    const dataDir = join(root, 'data');
    const databaseUrl = await freshDatabase();
    const importAdvisories = async (dir: string) => {
      const args = ['advisories', 'import', dir, '--format', 'secdb', '--namespace', 'alpine', '--data', dataDir];
      if (databaseUrl) args.push('--database', databaseUrl);
      const r = await berthCli(args);
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    };
    const file = (dir: string, text: string) => {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, 'main.json'), text);
      return join(root, dir);
    };
    let berth: Berth | undefined;
    try {
      mkdirSync(dataDir);
      berth = await startBerth({ dataDir, databaseUrl });
      const advised: Record<string, Record<string, string[]>> = {};
      for (let i = 0; i < ADVISED; i++) advised[name(i * 2)] = { '2.0-r0': [`CVE-2030-${10000 + i}`] };
      await importAdvisories(file('secdb', secdb(advised)));

      const layout = join(root, 'layout');
      const image = await writeImage(layout, 'big', {
        fileLayers: alpineLayers(Array.from({ length: PACKAGES }, (_, i) => ({ name: name(i), version: '1.0-r0' }))),
      });
      const host = registryHost(berth);
      const pushed = await skopeo([
        'copy',
        '--preserve-digests',
        ...creds('dest', '_token', cliToken(berth, host).token),
        `oci:${layout}:big`,
        `docker://${host}/${berth.orgName}/reports/big:big`,
      ]);
      assert.equal(pushed.code, 0, pushed.stderr);
      let owner = ownerToken(berth.credentialsFile, berth.url);
      const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}&page_size=100`, { token: owner });
      const repo = repos.json.repos.find((r: { name: string }) => r.name === 'reports/big').uid as string;
      const digest = image.manifest.digest;

      const first = await waitForVulnReport(berth.url, owner, repo, digest, () => true, 240_000);
      assert.equal(first.json.vulnerabilityMatches.length, ADVISED);
      assert.ok(matchSummary(first).includes('pkg-00002@1.0-r0 CVE-2030-10001 FIXED 2.0-r0'));
      assert.equal(generationOf(first), 1);

      // One more advisory for one package, and kill -9 as soon as the import ends.
      await importAdvisories(file('secdb-more', secdb({ [name(1)]: { '3.0-r0': ['CVE-2031-0001'] } })));
      const exited = new Promise((res) => berth?.process.once('exit', res));
      berth.process.kill('SIGKILL');
      await exited;

      berth = await startBerth({ dataDir, databaseUrl });
      owner = ownerToken(berth.credentialsFile, berth.url);
      const second = await waitForVulnReport(berth.url, owner, repo, digest, (r) => generationOf(r) > 1, 180_000);
      assert.equal(generationOf(second), 2);
      assert.equal(second.json.vulnerabilityMatches.length, ADVISED + 1);
      assert.ok(matchSummary(second).includes('pkg-00001@1.0-r0 CVE-2031-0001 FIXED 3.0-r0'));
      await berth.stop();
      berth = undefined;
      const check = await openBerthStore({ dataDir, databaseUrl });
      try {
        const job = await check.db.selectFrom('scan_jobs').selectAll().where('kind', '=', 'rematch').where('digest', '=', digest).executeTakeFirstOrThrow();
        assert.deepEqual([job.status, job.attempts], ['done', 1], 'the image was matched whole once, at its push');
        const cursor = await check.db.selectFrom('scan_cursors').select('position').where('name', '=', 'advisory-changes').executeTakeFirstOrThrow();
        const last = await check.db
          .selectFrom('advisory_changes')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow();
        assert.equal(Number(cursor.position), Number(last.id), 'the change log was followed to its end');
      } finally {
        await check.close();
      }
    } finally {
      await berth?.stop();
      rmSync(root, { recursive: true, force: true });
      await dropDatabase(databaseUrl);
    }
  });
});
