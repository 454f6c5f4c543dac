// A splice after an advisory change (report-splice.ts, through the follower's
// step in advisory-cursor.ts) writes exactly what a whole re-match writes,
// on SQLite or PostgreSQL (BERTH_TEST_PG), for packages of every kind a
// splice finds by name without loading the whole inventory: an apk package
// under its origin, a deb package under its source, a scoped npm package, a
// Maven groupId:artifactId, a PyPI package under its normalized name. Each
// touched report gets one new generation and one event, in one write per
// page; an image holding no changed package is not rewritten; nothing is
// queued for a whole re-match. Advisories are imported with the importer
// (OSV files); the whole re-match is matchInventory over the stored
// inventory, as the 'rematch' job does it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeGroup } from '../../src/iam/groups/group-writer.js';
import { writeRepo } from '../../src/registry/repos/repo-writer.js';
import { writeInventory } from '../../src/scanning/inventories/inventory-writer.js';
import { loadInventories } from '../../src/scanning/inventories/stored-inventory.js';
import type { Inventory, InstalledPackage } from '../../src/scanning/inventory/inventory.js';
import { matchInventory } from '../../src/scanning/matching/match-inventory.js';
import { advisoryChangesPending, followAdvisoryChanges } from '../../src/scanning/reports/advisory-cursor.js';
import { berthReportBody } from '../../src/scanning/reports/berth-report.js';
import { reportScopes } from '../../src/scanning/reports/rematch-job.js';
import { writeBerthReport } from '../../src/scanning/reports/write-berth-report.js';
import { reportText } from '../../src/scanning/scanner-reports/berth-report-parts.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { FORMATS } from '../../src/vulnerabilities/import/formats.js';
import { importFiles } from '../../src/vulnerabilities/import/import-files.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';

const root = mkdtempSync(join(tmpdir(), 'berth-splice-'));
const db = { dataDir: join(root, 'data'), databaseUrl: undefined as string | undefined };
let store: Store;
let org: string;
let repo: string;

const pkg = (p: Partial<InstalledPackage> & Pick<InstalledPackage, 'type' | 'name' | 'version'>): InstalledPackage => ({
  purl: `pkg:${p.type}/${p.name}@${p.version}`,
  locations: ['/'],
  foundBy: 'sbom',
  ...p,
});
const digest = (n: number) => `sha256:${String(n).repeat(64)}`;
const IMAGES: Record<number, Inventory> = {
  1: {
    os: { id: 'wolfi', versionId: '20230201' },
    packages: [
      pkg({ type: 'apk', name: 'busybox', version: '1.36.1-r0' }),
      pkg({ type: 'apk', name: 'libcrypto3', version: '3.1.4-r0', source: { name: 'openssl' } }),
      pkg({ type: 'npm', namespace: '@acme', name: 'left-pad', version: '1.0.0' }),
      pkg({ type: 'maven', namespace: 'org.example', name: 'lib', version: '1.0' }),
      pkg({ type: 'pypi', name: 'Foo_Bar', version: '1.0' }),
    ],
    skipped: [],
  },
  2: {
    os: { id: 'debian', versionId: '12' },
    packages: [
      pkg({ type: 'deb', name: 'tar', version: '1.34+dfsg-1.2' }),
      pkg({ type: 'deb', name: 'libc6', version: '2.36-9', source: { name: 'glibc' } }),
      pkg({ type: 'npm', namespace: '@acme', name: 'left-pad', version: '1.0.5' }),
    ],
    skipped: [],
  },
  3: { os: { id: 'wolfi', versionId: '20230201' }, packages: [pkg({ type: 'apk', name: 'zlib', version: '1.3-r0' })], skipped: [] },
};

/** An OSV advisory fixing `name` under `ecosystem` at `fixed`. */
const osv = (id: string, ecosystem: string, name: string, fixed: string) => ({
  schema_version: '1.6.0',
  id,
  modified: '2026-01-01T00:00:00Z',
  affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }] }],
});

async function importOsv(label: string, docs: ReturnType<typeof osv>[]): Promise<void> {
  const dir = join(root, label);
  mkdirSync(dir);
  for (const d of docs) writeFileSync(join(dir, `${d.id}.json`), JSON.stringify(d));
  const summary = await importFiles(store, {
    source: 'osv',
    read: (opts) => (FORMATS.osv.read as NonNullable<typeof FORMATS.osv.read>)(dir, opts),
    architectures: ['x86_64'],
    namespace: '',
    group: org,
    dryRun: false,
    prune: false,
  });
  assert.equal(summary.error, undefined);
  assert.equal(summary.added, docs.length);
}

async function follow(): Promise<number> {
  let written = 0;
  while (await advisoryChangesPending(store)) written += (await followAdvisoryChanges(store)).written;
  return written;
}

/** The image's report as a whole re-match computes it now. */
async function wholeBody(n: number) {
  const inventory = (await loadInventories(store.db, [digest(n)])).get(digest(n));
  assert.ok(inventory);
  return berthReportBody(await matchInventory(store.db, inventory, { scope: (await reportScopes(store))(org) }));
}

const stored = (n: number) =>
  store.db.selectFrom('vuln_reports').select(['id', 'vulnerabilities', 'raw_digest', 'generation']).where('digest', '=', digest(n)).executeTakeFirstOrThrow();
const events = async () =>
  (await store.db.selectFrom('event_outbox').select('body').where('type', 'like', '%vulnreport.updated.v1').execute()).map(
    (e) => (JSON.parse(e.body) as { digest: string }).digest,
  );

before(async () => {
  mkdirSync(db.dataDir);
  db.databaseUrl = await freshDatabase();
  store = await openStore(db);
  await transact(store, async (tx) => {
    org = (await writeGroup(tx, { parent: '', name: 'splice.example', description: '' }, 'first-start')).uid;
    repo = (await writeRepo(tx, { parent: org, name: 'images', description: '' }, { pushedBy: '' })).uid;
    for (const [n, inventory] of Object.entries(IMAGES)) await writeInventory(tx, digest(Number(n)), inventory, { sboms: [] });
  });
  await importOsv('first', [
    osv('CGA-0001', 'Wolfi', 'openssl', '3.1.4-r1'),
    osv('GHSA-0001', 'npm', '@acme/left-pad', '1.0.1'),
    osv('GHSA-0002', 'Maven', 'org.example:lib', '1.1'),
    osv('PYSEC-0001', 'PyPI', 'foo.bar', '1.1'),
    osv('DSA-0001', 'Debian:12', 'glibc', '2.36-9+deb12u1'),
    osv('CGA-0002', 'Wolfi', 'zlib', '1.3-r1'),
  ]);
  // The reports as the images' first whole match wrote them, then the change log followed up to here.
  for (const n of [1, 2, 3]) {
    const body = await wholeBody(n);
    await transact(store, (tx) =>
      writeBerthReport(tx, {
        repoUid: repo,
        digest: digest(n),
        body: { parts: body.parts, digest: body.digest, matches: body.vulnerabilities },
        now: new Date().toISOString(),
        expectGeneration: 0,
      }),
    );
  }
  assert.equal(await follow(), 0, 'the reports are current');
});

after(async () => {
  await store?.close();
  await dropDatabase(db.databaseUrl);
  rmSync(root, { recursive: true, force: true });
});

describe('a splice after an advisory change', () => {
  it('writes what a whole re-match writes, for packages found by origin, source, scope, groupId and normalized name', async () => {
    const before: Record<number, Awaited<ReturnType<typeof stored>>> = { 1: await stored(1), 2: await stored(2), 3: await stored(3) };
    const eventsBefore = (await events()).length;
    await importOsv('second', [
      osv('CGA-0003', 'Wolfi', 'openssl', '3.2.0-r0'),
      osv('GHSA-0003', 'npm', '@acme/left-pad', '2.0.0'),
      osv('GHSA-0004', 'Maven', 'org.example:lib', '2.0'),
      osv('PYSEC-0002', 'PyPI', 'FOO-bar', '2.0'),
      osv('DSA-0002', 'Debian:12', 'glibc', '2.37-1'),
    ]);
    assert.equal(await follow(), 2, 'the two images holding a changed package');
    for (const n of [1, 2]) {
      const whole = await wholeBody(n);
      const now = await stored(n);
      assert.equal(now.generation, before[n].generation + 1);
      assert.equal(now.raw_digest, whole.digest, `image ${n}: the spliced report's digest is the whole re-match's`);
      assert.equal(await reportText(store.db, { ...now, scanner_name: 'BERTH' }), JSON.stringify(whole.vulnerabilities));
    }
    // Each changed package of image 1 now matches both its advisories; image 2's npm package only the new one.
    const names = async (n: number) =>
      (JSON.parse(await reportText(store.db, { ...(await stored(n)), scanner_name: 'BERTH' })) as { package: { name: string } }[]).map((v) => v.package.name);
    assert.deepEqual(await names(1), ['libcrypto3', 'libcrypto3', 'left-pad', 'left-pad', 'lib', 'lib', 'Foo_Bar', 'Foo_Bar']);
    assert.deepEqual(await names(2), ['libc6', 'libc6', 'left-pad']);
    assert.deepEqual(await stored(3), before[3], 'the image holding no changed package is not rewritten');
    assert.deepEqual((await events()).slice(eventsBefore).sort(), [digest(1), digest(2)]);
    const queued = await store.db.selectFrom('scan_jobs').select('digest').where('kind', '=', 'rematch').execute();
    assert.deepEqual(queued, [], 'every report was spliced, none queued for a whole re-match');
  });
});
