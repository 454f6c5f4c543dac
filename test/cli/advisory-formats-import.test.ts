// `berth advisories import` of one generated truth in four formats, each into
// its own database, compared with the YAML import where the format can carry
// the data (OSV and secdb: the latest fixed / false-positive event, secdb
// per origin package and without a time; OpenVEX: the latest event with a
// VEX status, the false-positive type through its justification). Each import
// twice: the second changes nothing. And `berth advisories import-metadata`:
// OSV records into vulnerability metadata, a re-import writing nothing, one
// changed record changing one row. SQLite, or PostgreSQL with BERTH_TEST_PG.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { firstStart, syncBuiltinRoles } from '../../src/iam/first-start.js';
import { openStore } from '../../src/store/store.js';
import { FALSE_POSITIVE_TYPES } from '../../src/vulnerabilities/event-kinds.js';
import { JUSTIFICATION_TYPES } from '../../src/vulnerabilities/import/openvex-advisories.js';
import { generateAdvisories, renderYaml } from '../harness/advisory-generator.js';
import { renderOpenVex } from '../harness/advisory-render-openvex.js';
import { renderOsv } from '../harness/advisory-render-osv.js';
import { renderSecdb } from '../harness/advisory-render-secdb.js';
import { dropDatabase, freshDatabase } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { sqlQuery } from '../harness/database.js';
import { writeZip } from '../harness/zip-writer.js';

interface Db {
  dataDir: string;
  databaseUrl?: string;
}

const root = mkdtempSync(join(tmpdir(), 'berth-adv-cli-'));
const feed = generateAdvisories(77, { documents: 10, advisoriesPerDocument: 4 });
const dbs: Db[] = [];

async function newDb(name: string): Promise<Db> {
  const db = { dataDir: join(root, name), databaseUrl: await freshDatabase() };
  // The server's first start: creates and migrates the database, and the organization the imports go to
  // (its owner's keys in a directory of their own: some tests import the data directory).
  const keys = join(root, `${name}.keys`);
  mkdirSync(keys, { recursive: true });
  const store = await openStore(db);
  try {
    await syncBuiltinRoles(store);
    await firstStart(store, 'formats.example', keys, 'http://127.0.0.1:0');
  } finally {
    await store.close();
  }
  dbs.push(db);
  return db;
}

function dbArgs(db: Db): string[] {
  return db.databaseUrl ? ['--database', db.databaseUrl] : ['--data', db.dataDir];
}

async function importInto(db: Db, format: string, path: string, extra: string[] = []): Promise<string> {
  const r = await berthCli(['advisories', 'import', path, '--format', format, ...dbArgs(db), ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

interface Row {
  id: string;
  aliases: string[];
  artifact: string;
  arch: string;
  origin: string;
  component: string[];
  time: string;
  kind: string;
  payload: Record<string, unknown>;
}

/** Every advisory in the database with its latest event (kind = the oneof case). */
async function stored(db: Db): Promise<Row[]> {
  const advisories = await sqlQuery(
    db,
    'select uid, advisory_id, aliases, artifact_name, artifact_architecture, origin, component_name, component_type, component_location from advisories',
  );
  const events = await sqlQuery(db, 'select advisory_uid, create_time, uid, data from advisory_events order by create_time, uid');
  const latest = new Map<string, Record<string, unknown>>();
  for (const e of events) latest.set(String(e.advisory_uid), e);
  return advisories.map((a) => {
    const e = latest.get(String(a.uid));
    assert.ok(e, `advisory ${a.uid} has no event`);
    const [kind, payload] = Object.entries(JSON.parse(String(e.data)) as Record<string, Record<string, unknown>>)[0];
    return {
      id: String(a.advisory_id),
      aliases: JSON.parse(String(a.aliases)) as string[],
      artifact: String(a.artifact_name),
      arch: String(a.artifact_architecture),
      origin: String(a.origin),
      component: [String(a.component_name), String(a.component_type), String(a.component_location)],
      time: new Date(String(e.create_time)).toISOString(),
      kind,
      payload,
    };
  });
}

const sorted = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).sort();
const resolved = (r: Row) => r.kind === 'fixed' || r.kind === 'falsePositiveDetermination';
const resolution = (r: Row) => (r.kind === 'fixed' ? { kind: r.kind, fixedVersion: r.payload.fixedVersion } : { kind: r.kind });

describe('berth advisories import: one truth as YAML, OSV, secdb and OpenVEX', () => {
  let yamlRows: Row[];
  const dirs = { yaml: join(root, 'yaml'), osv: join(root, 'osv'), vex: join(root, 'vex') };

  before(async () => {
    for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
    const osvFiles = [];
    for (const doc of feed.documents) {
      writeFileSync(join(dirs.yaml, `${doc.origin}.advisories.yaml`), renderYaml(doc));
      writeFileSync(join(dirs.vex, `${doc.origin}.openvex.json`), renderOpenVex(doc));
      osvFiles.push(...renderOsv(doc));
    }
    writeFileSync(join(dirs.osv, 'all.zip'), writeZip(osvFiles.map((f) => ({ name: f.name, data: Buffer.from(f.text) }))));
    writeFileSync(join(root, 'security.json'), renderSecdb(feed.documents, ['x86_64', 'aarch64']));
    const db = await newDb('yaml');
    await importInto(db, 'yaml', dirs.yaml);
    yamlRows = await stored(db);
    assert.equal(yamlRows.length, feed.documents.length * 4);
  });

  after(async () => {
    for (const db of dbs) await dropDatabase(db.databaseUrl);
    rmSync(root, { recursive: true, force: true });
  });

  it('OSV all.zip: the resolved advisories, their latest event and its time; a re-import changes nothing', async () => {
    const db = await newDb('osv');
    const first = await importInto(db, 'osv', join(dirs.osv, 'all.zip'));
    const expected = yamlRows
      .filter(resolved)
      .map((r) => ({ id: r.id, aliases: r.aliases, artifact: r.artifact, arch: r.arch, origin: r.origin, time: r.time, ...resolution(r) }));
    assert.ok(expected.length > 3, first);
    const rows = await stored(db);
    assert.deepEqual(
      sorted(rows.map((r) => ({ id: r.id, aliases: r.aliases, artifact: r.artifact, arch: r.arch, origin: r.origin, time: r.time, ...resolution(r) }))),
      sorted(expected),
    );
    assert.match(first, new RegExp(`\\+${expected.length} added`));
    assert.match(await importInto(db, 'osv', join(dirs.osv, 'all.zip')), /\+0 added ~0 changed -0 removed/);
    assert.match(await importInto(db, 'osv', join(dirs.osv, 'all.zip'), ['--force']), /\+0 added ~0 changed -0 removed/);
  });

  it('secdb: the resolved advisories per origin package on both listed arches; a re-import changes nothing', async () => {
    const db = await newDb('secdb');
    const file = join(root, 'security.json');
    await importInto(db, 'secdb', file);
    const expected = yamlRows
      .filter(resolved)
      .flatMap((r) => ['x86_64', 'aarch64'].map((arch) => ({ id: r.id, aliases: r.aliases, artifact: r.origin, arch, ...resolution(r) })));
    assert.ok(expected.length > 6);
    const rows = await stored(db);
    assert.deepEqual(sorted(rows.map((r) => ({ id: r.id, aliases: r.aliases, artifact: r.artifact, arch: r.arch, ...resolution(r) }))), sorted(expected));
    assert.match(await importInto(db, 'secdb', file, ['--force']), /\+0 added ~0 changed -0 removed/);
  });

  it('OpenVEX: the advisories whose latest event has a VEX status, with component, time and note; a re-import changes nothing', async () => {
    const db = await newDb('openvex');
    await importInto(db, 'openvex', dirs.vex);
    const vexPayload = (r: Row): Record<string, unknown> | undefined => {
      const note = typeof r.payload.note === 'string' ? { note: r.payload.note } : {};
      if (r.kind === 'detection') return { manual: {} };
      if (r.kind === 'truePositiveDetermination') return note;
      if (r.kind === 'fixed') return { fixedVersion: r.payload.fixedVersion };
      if (r.kind === 'falsePositiveDetermination') {
        const vex = FALSE_POSITIVE_TYPES.find((t) => t.proto === r.payload.type)?.vex ?? '';
        return { type: JUSTIFICATION_TYPES[vex], ...note };
      }
      return undefined;
    };
    const project = (r: Row, payload: unknown) => ({
      id: r.id,
      aliases: r.aliases,
      artifact: r.artifact,
      arch: r.arch,
      component: r.component,
      time: r.time,
      kind: r.kind,
      payload,
    });
    const expected = yamlRows.filter((r) => vexPayload(r)).map((r) => project(r, vexPayload(r)));
    assert.ok(expected.length > 3 && expected.length < yamlRows.length);
    const rows = await stored(db);
    assert.deepEqual(sorted(rows.map((r) => project(r, r.payload))), sorted(expected));
    assert.match(await importInto(db, 'openvex', dirs.vex, ['--force']), /\+0 added ~0 changed -0 removed/);
  });

  it('--format auto tells the three JSON formats apart', async () => {
    const db = await newDb('auto');
    for (const [path, source] of [
      [join(dirs.osv, 'all.zip'), 'osv'],
      [join(root, 'security.json'), 'secdb'],
      [dirs.vex, 'openvex'],
    ]) {
      const r = await berthCli(['advisories', 'import', path, ...dbArgs(db)]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^${source}: `, 'm'));
    }
  });

  it('refuses a broken JSON file with file:line and exit status 1', async () => {
    const db = await newDb('broken');
    const file = join(root, 'broken.json');
    writeFileSync(file, '{\n  "id": "CVE-2024-1234",\n  "modified": nope\n}\n');
    const r = await berthCli(['advisories', 'import', file, '--format', 'osv', ...dbArgs(db)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: invalid JSON`));
  });
});

describe('berth advisories import-metadata', () => {
  const dir = join(root, 'metadata');
  const record = (id: string, summary: string) => ({
    schema_version: '1.6.0',
    id,
    modified: '2024-07-01T12:00:00Z',
    summary,
    details: `Details of ${id}.`,
    aliases: [],
    severity: [
      { type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' },
      { type: 'Ubuntu', score: 'high' },
    ],
    affected: [
      { package: { ecosystem: 'Go', name: 'x' }, severity: [{ type: 'CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N' }] },
    ],
    references: [
      { type: 'ADVISORY', url: `https://example.test/${id}` },
      { type: 'GIT', url: 'https://example.test/repo.git' },
      { type: 'NEW_KIND', url: 'https://example.test/new' },
    ],
  });

  before(() => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'CVE-2024-10001.json'), JSON.stringify(record('CVE-2024-10001', 'first')));
    writeFileSync(join(dir, 'GHSA-2345-6789-cfgh.json'), JSON.stringify(record('GHSA-2345-6789-cfgh', 'second')));
    writeFileSync(join(dir, 'GO-2024-1234.json'), JSON.stringify({ ...record('GO-2024-1234', 'gone'), withdrawn: '2024-08-01T00:00:00Z' }));
    writeFileSync(
      join(root, 'metadata.zip'),
      writeZip([{ name: 'CVE-2024-10002.json', data: Buffer.from(JSON.stringify(record('CVE-2024-10002', 'zipped'))) }]),
    );
  });

  it('imports a directory and an all.zip; a re-import writes nothing; a changed record changes one row; --dry-run writes nothing', async () => {
    const db = await newDb('metadata');
    const run = async (...args: string[]) => {
      const r = await berthCli(['advisories', 'import-metadata', ...args, ...dbArgs(db)]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    assert.match(await run(dir, join(root, 'metadata.zip')), /^metadata: \+3 added ~0 changed =0 unchanged \(1 withdrawn skipped\)/);
    const rows = await sqlQuery(db, 'select id, summary, details, refs, severities, modified, update_time from vulnerability_metadata order by id');
    assert.deepEqual(
      rows.map((r) => r.id),
      ['CVE-2024-10001', 'CVE-2024-10002', 'GHSA-2345-6789-cfgh'],
    );
    const first = rows[0];
    assert.equal(first.summary, 'first');
    assert.equal(first.details, 'Details of CVE-2024-10001.');
    assert.deepEqual(JSON.parse(String(first.refs)), [
      { type: 'TYPE_ADVISORY', url: 'https://example.test/CVE-2024-10001' },
      { type: 'TYPE_WEB', url: 'https://example.test/repo.git' },
      { type: 'TYPE_WEB', url: 'https://example.test/new' },
    ]);
    assert.deepEqual(JSON.parse(String(first.severities)), [
      { type: 'TYPE_CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' },
      { type: 'TYPE_CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N' },
    ]);
    assert.equal(new Date(String(first.modified)).toISOString(), '2024-07-01T12:00:00.000Z');

    assert.match(await run(dir, join(root, 'metadata.zip')), /^metadata: \+0 added ~0 changed =3 unchanged/);
    const again = await sqlQuery(db, 'select id, update_time from vulnerability_metadata order by id');
    assert.deepEqual(
      again.map((r) => String(r.update_time)),
      rows.map((r) => String(r.update_time)),
      'nothing rewritten',
    );

    writeFileSync(join(dir, 'CVE-2024-10001.json'), JSON.stringify({ ...record('CVE-2024-10001', 'first, revised'), modified: '2024-07-02T00:00:00Z' }));
    assert.match(await run(dir, '--dry-run'), /^metadata \(dry run, nothing written\): \+0 added ~1 changed =1 unchanged/);
    assert.equal((await sqlQuery(db, "select summary from vulnerability_metadata where id = 'CVE-2024-10001'"))[0].summary, 'first');
    assert.match(await run(dir), /^metadata: \+0 added ~1 changed =1 unchanged/);
    assert.equal((await sqlQuery(db, "select summary from vulnerability_metadata where id = 'CVE-2024-10001'"))[0].summary, 'first, revised');
  });

  it('refuses a bad record with file:line, and a data directory with no database', async () => {
    const db = await newDb('metadata-bad');
    const bad = join(root, 'bad-metadata.json');
    writeFileSync(bad, JSON.stringify({ id: 'CVE-2024-10003', modified: '2024-07-01T12:00:00Z', references: [{ type: 'WEB' }] }));
    const r = await berthCli(['advisories', 'import-metadata', bad, ...dbArgs(db)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /bad-metadata\.json:0: references\[0\]\.url: must be a non-empty string/);
    const none = await berthCli(['advisories', 'import-metadata', bad, '--data', join(root, 'no-such-dir')]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no Berth database in/);
  });
});
