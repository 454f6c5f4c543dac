// The advisory follower's cursor over the change log (advisory-cursor.ts),
// on SQLite or PostgreSQL (BERTH_TEST_PG): a step looks at each inventory
// holding a changed (ecosystem, package) key and at none of the others — each
// image here has a report in the form written before reports kept package
// indexes, which cannot be spliced, so each image looked at is queued for a
// full 'rematch', which makes the images looked at visible; an id that becomes visible after a larger one (PostgreSQL's
// sequence: a transaction that took id 2 commits after one that took 3) is
// kept as a gap and handled when it arrives; a gap never filled is given up
// after GAP_WAIT_MS; a step with nothing new changes nothing. The change
// rows are written directly, with the ids chosen, to make the order happen.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeGroup } from '../../src/iam/groups/group-writer.js';
import { writeRepo } from '../../src/registry/repos/repo-writer.js';
import { writeInventory } from '../../src/scanning/inventories/inventory-writer.js';
import type { InstalledPackage } from '../../src/scanning/inventory/inventory.js';
import { ADVISORY_CURSOR, followAdvisoryChanges, GAP_WAIT_MS } from '../../src/scanning/reports/advisory-cursor.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';

const root = mkdtempSync(join(tmpdir(), 'berth-cursor-'));
const db = { dataDir: root, databaseUrl: undefined as string | undefined };
let store: Store;

const apk = (name: string, origin?: string): InstalledPackage => ({
  type: 'apk',
  name,
  version: '1.0-r0',
  purl: `pkg:apk/alpine/${name}@1.0-r0`,
  ...(origin ? { source: { name: origin } } : {}),
  locations: ['lib/apk/db/installed'],
  foundBy: 'apk-db',
});
const digest = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;

async function change(id: number, ecosystem: string, pkg: string): Promise<void> {
  await transact(store, (tx) => tx.insertInto('advisory_changes').values({ id, ecosystem, package: pkg, change_time: new Date().toISOString() }).execute());
}

async function queued(): Promise<Map<string, number>> {
  const rows = await store.db.selectFrom('scan_jobs').select(['digest', 'generation']).where('kind', '=', 'rematch').execute();
  return new Map(rows.map((r) => [r.digest, r.generation]));
}

async function cursor(): Promise<{ position: number; gaps: number[] }> {
  const row = await store.db.selectFrom('scan_cursors').selectAll().where('name', '=', ADVISORY_CURSOR).executeTakeFirstOrThrow();
  return { position: Number(row.position), gaps: (JSON.parse(row.gaps) as { id: number }[]).map((g) => g.id) };
}

/** A report as stored before reports kept package indexes: one match without `berth.packageIndex`. */
const OLD_FORM = JSON.stringify([{ id: 'CVE-2020-0001', severity: 'UNKNOWN', berth: { advisoryId: 'CGA-x', ecosystem: 'apk:alpine' } }]);

before(async () => {
  db.databaseUrl = await freshDatabase();
  store = await openStore(db);
  const os = { id: 'alpine', versionId: '3.19.1' };
  await transact(store, async (tx) => {
    await writeInventory(tx, digest(1), { os, packages: [apk('busybox'), apk('ssl_client', 'busybox')], skipped: [] }, { sboms: [] });
    await writeInventory(tx, digest(2), { os, packages: [apk('musl')], skipped: [] }, { sboms: [] });
    await writeInventory(tx, digest(3), { os, packages: [apk('zlib')], skipped: [] }, { sboms: [] });
    const org = await writeGroup(tx, { parent: '', name: 'cursor.example', description: '' }, 'first-start');
    const repo = await writeRepo(tx, { parent: org.uid, name: 'images', description: '' }, { pushedBy: '' });
    // Rows as written before reports were stored by package (the writer writes parts now).
    const now = new Date().toISOString();
    for (const n of [1, 2, 3])
      await tx
        .insertInto('vuln_reports')
        .values({
          repo_uid: repo.uid,
          digest: digest(n),
          scanner_name: 'BERTH',
          scanner_version: '1',
          db_build_time: null,
          created_at: now,
          vulnerabilities: OLD_FORM,
          raw: null,
          raw_digest: `sha256:${n}`,
          referrer_digest: null,
          store_time: now,
          generation: 1,
        })
        .execute();
  });
});

after(async () => {
  await store?.close();
  await dropDatabase(db.databaseUrl);
  rmSync(root, { recursive: true, force: true });
});

describe('the advisory change cursor', () => {
  it('looks at exactly the inventories holding a changed key, once each', async () => {
    await change(1, 'apk:alpine', 'busybox');
    await change(3, 'apk:alpine:v3.19', 'busybox');
    const step = await followAdvisoryChanges(store);
    assert.deepEqual([...(await queued()).keys()], [digest(1)]);
    assert.equal(step.images, 1);
    assert.equal(step.queued, 1);
    assert.equal(step.written, 0);
    assert.equal(step.changes, 2);
    assert.deepEqual(await cursor(), { position: 3, gaps: [2] });
  });

  it('handles an id that became visible after a larger one (a gap), and only then forgets it', async () => {
    await change(2, 'apk:alpine', 'musl');
    const before = await queued();
    await followAdvisoryChanges(store);
    const now = await queued();
    assert.ok(now.has(digest(2)), 'the late change re-matches its image');
    assert.equal(now.get(digest(1)), before.get(digest(1)), 'and nothing else');
    assert.ok(!now.has(digest(3)));
    assert.deepEqual(await cursor(), { position: 3, gaps: [] });
  });

  it('gives a gap up after GAP_WAIT_MS; a step with nothing new queues nothing', async () => {
    await change(5, 'apk:alpine', 'zlib');
    const t = Date.now();
    await followAdvisoryChanges(store, t);
    assert.deepEqual(await cursor(), { position: 5, gaps: [4] });
    assert.ok((await queued()).has(digest(3)));
    const before = await queued();
    await followAdvisoryChanges(store, t + GAP_WAIT_MS - 1);
    assert.deepEqual(await cursor(), { position: 5, gaps: [4] });
    await followAdvisoryChanges(store, t + GAP_WAIT_MS);
    assert.deepEqual(await cursor(), { position: 5, gaps: [] });
    assert.deepEqual(await queued(), before);
  });
});
