// Berth's reports written by package (storeBerthReport, berth_report_parts),
// on SQLite or PostgreSQL (BERTH_TEST_PG): a row in the form written before
// parts (whole text in the column) is rewritten in parts by a whole write,
// its previous ids read from its text; the assembled text is the whole
// report's JSON; the same report again writes nothing; a page of splices
// (storeBerthSplices: one statement per table) rewrites only the reports still
// at the generation they were read at, and only their replaced packages'
// parts, each reading back as the whole report written anew; deleting the
// report deletes its parts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeGroup } from '../../src/iam/groups/group-writer.js';
import { writeRepo } from '../../src/registry/repos/repo-writer.js';
import type { InstalledPackage } from '../../src/scanning/inventory/inventory.js';
import type { VulnMatch } from '../../src/scanning/matching/vuln-match.js';
import { berthReportBody, berthVulnerabilities, reportParts } from '../../src/scanning/reports/berth-report.js';
import { reportText } from '../../src/scanning/scanner-reports/berth-report-parts.js';
import { storeBerthReport, storeBerthSplices } from '../../src/scanning/scanner-reports/store-scanner-report.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';

const root = mkdtempSync(join(tmpdir(), 'berth-parts-'));
const db = { dataDir: root, databaseUrl: undefined as string | undefined };
let store: Store;
let repoUid: string;
const DIGEST = `sha256:${'a'.repeat(64)}`;
const OLD_FORM = JSON.stringify([{ id: 'CVE-2020-0001', severity: 'UNKNOWN', berth: { advisoryId: 'CGA-x', ecosystem: 'apk:wolfi' } }]);

const pkg = (i: number): InstalledPackage => ({
  type: 'apk',
  name: `p${i}`,
  version: '1.0-r0',
  purl: `pkg:apk/wolfi/p${i}@1.0-r0`,
  locations: ['lib/apk/db/installed'],
  foundBy: 'apk-db',
});

const match = (packageIndex: number, id: string): VulnMatch => ({
  packageIndex,
  package: pkg(packageIndex),
  advisoryUid: `uid-${id}`,
  advisoryId: `CGA-${id}`,
  vulnerabilityId: id,
  aliases: [],
  source: 'yaml',
  ecosystem: 'apk:wolfi',
  fix: { state: 'fixed', versions: ['2.0-r0'] },
  severity: 'HIGH',
  cvss: [],
  description: 'a "quoted" ,{"packageIndex":9 description',
  urls: [],
});

const OTHER = `sha256:${'b'.repeat(64)}`;
const STALE = `sha256:${'c'.repeat(64)}`;
const row = (digest = DIGEST) =>
  store.db.selectFrom('vuln_reports').select(['id', 'vulnerabilities', 'raw_digest', 'generation']).where('digest', '=', digest).executeTakeFirstOrThrow();
const partCount = async (id: number | string) =>
  (await store.db.selectFrom('berth_report_parts').select('package_index').where('report_id', '=', Number(id)).execute()).length;

before(async () => {
  db.databaseUrl = await freshDatabase();
  store = await openStore(db);
  await transact(store, async (tx) => {
    const org = await writeGroup(tx, { parent: '', name: 'parts.example', description: '' }, 'first-start');
    repoUid = (await writeRepo(tx, { parent: org.uid, name: 'images', description: '' }, { pushedBy: '' })).uid;
    const now = new Date().toISOString();
    // A row as written before reports were stored by package.
    await tx
      .insertInto('vuln_reports')
      .values({
        repo_uid: repoUid,
        digest: DIGEST,
        scanner_name: 'BERTH',
        scanner_version: '1',
        db_build_time: null,
        created_at: now,
        vulnerabilities: OLD_FORM,
        raw: null,
        raw_digest: 'sha256:old',
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

const whole = (body: ReturnType<typeof berthReportBody>, expectGeneration: number, digest = DIGEST) =>
  transact(store, (tx) =>
    storeBerthReport(tx, {
      repoUid,
      digest,
      scannerVersion: '2',
      parts: body.parts,
      reportDigest: body.digest,
      now: new Date().toISOString(),
      expectGeneration,
    }),
  );

describe('reports stored by package', () => {
  const first = [match(0, 'CVE-1'), match(0, 'CVE-2'), match(2, 'CVE-3'), match(4, 'CVE-4')];

  it('rewrites a report of the old form in parts, and reads it back as the whole text', async () => {
    assert.equal(await reportText(store.db, { ...(await row()), scanner_name: 'BERTH' }), OLD_FORM, 'an old row reads as its column');
    const body = berthReportBody(first);
    const stored = await whole(body, 1);
    assert.deepEqual(stored, { changed: true, generation: 2, previousIds: ['CVE-2020-0001'] });
    const r = await row();
    assert.equal(r.vulnerabilities, '');
    assert.equal(r.raw_digest, body.digest);
    assert.equal(await partCount(r.id), 3);
    assert.equal(await reportText(store.db, { ...r, scanner_name: 'BERTH' }), JSON.stringify(body.vulnerabilities));
    // Unchanged: nothing written.
    assert.deepEqual(await whole(berthReportBody(first), 2), { changed: false, generation: 2 });
  });

  it('splices a page of reports: only the changed packages of those still at the generation read, each reading back as the whole report written anew', async () => {
    // Two more reports: OTHER holds the same packages' matches, STALE is rewritten after the splice read it.
    assert.equal((await whole(berthReportBody(first), 0, OTHER)).changed, true);
    assert.equal((await whole(berthReportBody(first), 0, STALE)).changed, true);
    const [mine, other, stale] = [await row(), await row(OTHER), await row(STALE)];
    assert.equal((await whole(berthReportBody([match(1, 'CVE-9')]), 1, STALE)).changed, true);

    const fresh = [match(2, 'CVE-5'), match(2, 'CVE-6'), match(3, 'CVE-7')]; // package 2 changes, 3 gains one, 4 loses its match
    const expected = berthReportBody([...first.filter((m) => m.packageIndex === 0), ...fresh]);
    const otherFresh = [match(0, 'CVE-8')]; // in OTHER only package 0 changes
    const otherExpected = berthReportBody([...otherFresh, ...first.filter((m) => m.packageIndex !== 0)]);
    const splice = (r: { id: number | string; generation: number }, matches: VulnMatch[], replaced: number[], digest: string) => ({
      id: Number(r.id),
      expectGeneration: r.generation,
      parts: reportParts(berthVulnerabilities(matches)),
      replaced,
      reportDigest: digest,
    });
    const written = await transact(store, (tx) =>
      storeBerthSplices(
        tx,
        [
          splice(mine, fresh, [2, 3, 4], expected.digest),
          splice(other, otherFresh, [0], otherExpected.digest),
          splice(stale, otherFresh, [0], otherExpected.digest),
        ],
        { scannerVersion: '2', now: new Date().toISOString() },
      ),
    );
    assert.deepEqual(
      written,
      new Map([
        [Number(mine.id), 3],
        [Number(other.id), 2],
      ]),
      'the stale report is a conflict',
    );
    const text = async (digest: string) => reportText(store.db, { ...(await row(digest)), scanner_name: 'BERTH' });
    assert.equal(await text(DIGEST), JSON.stringify(expected.vulnerabilities));
    assert.equal((await row()).raw_digest, expected.digest);
    assert.equal(await partCount(mine.id), 3);
    assert.equal(await text(OTHER), JSON.stringify(otherExpected.vulnerabilities));
    assert.equal((await row(OTHER)).raw_digest, otherExpected.digest);
    assert.equal(await text(STALE), JSON.stringify(berthReportBody([match(1, 'CVE-9')]).vulnerabilities), 'nothing of a conflict is written');
    assert.equal((await row(STALE)).generation, 2);
    // A whole re-match of the same matches computes the same digest: nothing written.
    assert.deepEqual(await whole(expected, 3), { changed: false, generation: 3 });
    assert.deepEqual(await whole(otherExpected, 2, OTHER), { changed: false, generation: 2 });
    // A stale generation is a conflict.
    assert.equal((await whole(berthReportBody(first), 2)).conflict, true);
    // A whole rewrite of a report in parts reads the ids it held from them.
    assert.deepEqual(await whole(berthReportBody(first), 3), { changed: true, generation: 4, previousIds: ['CVE-1', 'CVE-2', 'CVE-5', 'CVE-6', 'CVE-7'] });
  });

  it("deletes a report's parts with it", async () => {
    const r = await row();
    await transact(store, (tx) => tx.deleteFrom('vuln_reports').where('id', '=', r.id).execute());
    assert.equal(await partCount(r.id), 0);
  });
});
