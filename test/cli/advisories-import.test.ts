// `berth advisories import` as an operator runs it, against a running Berth's
// database (SQLite, or PostgreSQL with BERTH_TEST_PG): the advisories go to
// the first-start organization; a re-import changes nothing (same update times,
// files skipped by hash, or diffed with --force); one changed event is one
// changed advisory; a removed advisory stays without --prune and goes with
// it; --dry-run reports and writes nothing; a refused file stops the run with
// file:line and nothing of it is written; each run that changed something
// writes one advisories.imported event.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, type Berth, useBerth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { generateAdvisories, renderYaml, type GeneratedDocument } from '../harness/advisory-generator.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function importCli(berth: Berth, args: string[]): Promise<Run> {
  const all = [CLI, 'advisories', 'import', '--data', berth.dataDir, ...(berth.databaseUrl ? ['--database', berth.databaseUrl] : []), ...args];
  const env = { ...process.env };
  delete env.BERTH_DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, all, { env, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Summary {
  source: string;
  group: string;
  files: number;
  skippedFiles: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  eventsAdded: number;
  eventsRemoved: number;
}

async function importJson(berth: Berth, ...args: string[]): Promise<Summary> {
  const r = await importCli(berth, [...args, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { imports: Summary[] };
  assert.equal(out.imports.length, 1);
  return out.imports[0];
}

async function rows(berth: Berth): Promise<Map<string, { update_time: string; latest_event_type: number; advisory_id: string }>> {
  const list = await sqlQuery(berth, 'select uid, update_time, latest_event_type, advisory_id from advisories order by uid');
  return new Map(
    list.map((r) => [
      r.uid as string,
      { update_time: r.update_time as string, latest_event_type: Number(r.latest_event_type), advisory_id: r.advisory_id as string },
    ]),
  );
}

async function count(berth: Berth, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await sqlQuery(berth, sql, params))[0].n);
}

function writeFeed(dir: string, docs: GeneratedDocument[]): void {
  mkdirSync(dir, { recursive: true });
  for (const d of docs) writeFileSync(join(dir, `${d.origin}.advisories.yaml`), renderYaml(d));
}

describe('berth advisories import', () => {
  let berth: Berth;
  useBerth((b) => {
    berth = b;
  });
  const feed = generateAdvisories(1234, { documents: 6, advisoriesPerDocument: 4, eventsPerAdvisory: 4 });
  const total = feed.documents.reduce((n, d) => n + d.advisories.length, 0);
  const totalEvents = feed.documents.reduce((n, d) => n + d.advisories.reduce((m, a) => m + a.events.length, 0), 0);
  const root = mkdtempSync(join(tmpdir(), 'berth-advisories-'));
  const dir = join(root, 'feed');
  writeFeed(dir, feed.documents);

  it('explains formats, rows and idempotency in --help', async () => {
    const r = await new Promise<Run>((resolve) =>
      execFile(process.execPath, [CLI, 'advisories', 'import', '--help'], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr })),
    );
    assert.equal(r.code, 0);
    for (const text of ['--format', '--arch', '--namespace', '--group', '--dry-run', '--prune', '--database', 'osv', 'secdb', 'openvex', 'file:line']) {
      assert.ok(r.stdout.includes(text), `help mentions ${text}`);
    }
  });

  it('imports a directory into the first-start organization; a re-import changes nothing', async () => {
    const first = await importJson(berth, dir);
    assert.equal(first.added, total);
    assert.equal(first.eventsAdded, totalEvents);
    assert.equal(first.group, berth.orgUid);
    assert.equal(await count(berth, 'select count(*) as n from advisories where parent_uid = $1', [berth.orgUid]), total);
    assert.equal(await count(berth, 'select count(*) as n from advisory_events'), totalEvents);
    const aliases = feed.documents.reduce((n, d) => n + d.advisories.reduce((m, a) => m + a.aliases.length, 0), 0);
    assert.equal(await count(berth, 'select count(*) as n from advisory_aliases'), aliases);
    // The truth's advisory ids, each with its latest event type.
    const stored = await rows(berth);
    assert.deepEqual(
      [...new Set([...stored.values()].map((r) => r.advisory_id))].sort(),
      feed.documents.flatMap((d) => d.advisories.map((a) => a.advisoryId)).sort(),
    );
    const events = await count(berth, "select count(*) as n from event_outbox where type = 'api.vulnerabilities.advisories.imported.v1'");
    assert.equal(events, 1, 'one imported event for the run');

    const again = await importJson(berth, dir);
    assert.deepEqual([again.added, again.changed, again.removed, again.skippedFiles, again.group], [0, 0, 0, feed.documents.length, berth.orgUid]);
    const forced = await importJson(berth, dir, '--force');
    assert.deepEqual([forced.added, forced.changed, forced.removed, forced.unchanged, forced.eventsAdded], [0, 0, 0, total, 0]);
    assert.deepEqual(await rows(berth), stored, 'same rows, same update times');
    assert.equal(
      await count(berth, "select count(*) as n from event_outbox where type = 'api.vulnerabilities.advisories.imported.v1'"),
      1,
      'no event for runs that changed nothing',
    );
  });

  it('counts one changed event as one changed advisory, keeping the old event until --prune', async () => {
    const before = await rows(berth);
    const doc = feed.documents[0];
    const target = doc.advisories[0];
    const mutated = structuredClone(doc);
    const e = mutated.advisories[0].events[mutated.advisories[0].events.length - 1];
    e.time = new Date(Date.parse(e.time) + 1000).toISOString();
    writeFeed(dir, [mutated]);
    const eventsBefore = await count(berth, 'select count(*) as n from advisory_events');

    const dry = await importJson(berth, dir, '--dry-run');
    assert.deepEqual([dry.added, dry.changed, dry.removed, dry.skippedFiles], [0, 1, 0, feed.documents.length - 1]);
    assert.deepEqual(await rows(berth), before, '--dry-run wrote nothing');
    assert.equal(await count(berth, 'select count(*) as n from advisory_events'), eventsBefore);

    const r = await importJson(berth, dir);
    assert.deepEqual([r.added, r.changed, r.removed, r.eventsAdded, r.eventsRemoved], [0, 1, 0, 1, 0]);
    const after = await rows(berth);
    const moved = [...after].filter(([uid, row]) => before.get(uid)?.update_time !== row.update_time).map(([, row]) => row.advisory_id);
    assert.deepEqual(moved, [target.advisoryId], 'only that advisory moved');
    assert.equal(await count(berth, 'select count(*) as n from advisory_events'), eventsBefore + 1, 'the old event is kept');

    const pruned = await importJson(berth, dir, '--prune', '--force');
    assert.deepEqual([pruned.added, pruned.changed, pruned.removed, pruned.eventsRemoved], [0, 1, 0, 1]);
    assert.equal(await count(berth, 'select count(*) as n from advisory_events'), eventsBefore);
  });

  it('keeps an advisory gone from its file without --prune and deletes it with --prune (--dry-run first)', async () => {
    const doc = structuredClone(feed.documents[1]);
    const gone = doc.advisories.pop()!;
    writeFeed(dir, [doc]);
    const withId = 'select count(*) as n from advisories where advisory_id = $1';
    const kept = await importJson(berth, dir);
    assert.deepEqual([kept.added, kept.changed, kept.removed], [0, 0, 0]);
    assert.equal(await count(berth, withId, [gone.advisoryId]), 1);

    const dry = await importJson(berth, dir, '--prune', '--dry-run');
    assert.equal(dry.removed, 1);
    assert.equal(await count(berth, withId, [gone.advisoryId]), 1, '--dry-run deleted nothing');

    const pruned = await importJson(berth, dir, '--prune');
    assert.equal(pruned.removed, 1);
    assert.deepEqual([pruned.skippedFiles, pruned.unchanged], [0, total - 1], 'every file read, the rest unchanged');
    assert.equal(await count(berth, withId, [gone.advisoryId]), 0);
    assert.equal(await count(berth, 'select count(*) as n from advisories'), total - 1);
    assert.equal(await count(berth, 'select count(*) as n from advisory_aliases where alias = $1', [gone.aliases[0] ?? '-']), 0);
  });

  it('refuses a bad file with file:line and writes nothing of it; the files before it are imported', async () => {
    const bad = join(root, 'bad');
    const more = generateAdvisories(99, { documents: 2, advisoriesPerDocument: 2 });
    mkdirSync(bad);
    writeFileSync(join(bad, 'a-good.advisories.yaml'), renderYaml({ ...more.documents[0], origin: 'zz-good' }).replace('name: age', 'name: zz-good'));
    const text = renderYaml({ ...more.documents[1] }).replace(/- id: CGA-\S+/, '- id: CGA-0000-0000-0000');
    writeFileSync(join(bad, 'b-bad.advisories.yaml'), text);
    const line = text.split('\n').findIndex((l) => l.includes('CGA-0000-0000-0000')) + 1;
    const before = await count(berth, 'select count(*) as n from advisories');
    const r = await importCli(berth, [bad, '--prune']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`b-bad\\.advisories\\.yaml:${line}: id "CGA-0000-0000-0000" is not a CGA id`));
    assert.equal(await count(berth, 'select count(*) as n from advisories'), before + 2, 'the good file was imported, nothing pruned, nothing of the bad one');
    const hashes = await sqlQuery(berth, "select file_key from advisory_import_files where file_key like '%b-bad%'");
    assert.equal(hashes.length, 0, 'the refused file is not marked imported');
  });

  it('reads files ahead of the writer yet keeps exactly the files before a refused one', async () => {
    // Every file is parsed (on a parse thread) before the writer reaches the refused one: the refusal
    // must still come in its place, with the files before it written and none after it.
    const dirAhead = join(root, 'ahead');
    mkdirSync(dirAhead);
    const docs = generateAdvisories(7, { documents: 41, advisoriesPerDocument: 1 }).documents;
    const name = (i: number) => (i < 20 ? `a-${String(i).padStart(3, '0')}` : i === 20 ? 'b-bad' : `c-${String(i).padStart(3, '0')}`);
    docs.forEach((d, i) => {
      let text = renderYaml({ ...d, origin: `ahead-${i}` }).replace(`name: ${d.origin}`, `name: ahead-${i}`);
      if (i === 20) text = text.replace('schema-version: 2.0.2', 'schema-version: 2.0.2\nunknown-key: 1');
      writeFileSync(join(dirAhead, `${name(i)}.advisories.yaml`), text);
    });
    const r = await importCli(berth, [dirAhead]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /b-bad\.advisories\.yaml:\d+: /);
    const files = await sqlQuery(berth, 'select source_file from advisories where source_file like $1 order by source_file', [`${dirAhead}/%`]);
    const written = [...new Set(files.map((f) => String(f.source_file).slice(dirAhead.length + 1)))];
    assert.deepEqual(
      written,
      Array.from({ length: 20 }, (_, i) => `${name(i)}.advisories.yaml`),
    );
  });

  it('imports into a --group that exists and refuses one that does not', async () => {
    const other = join(root, 'other');
    writeFeed(other, generateAdvisories(5, { documents: 1, advisoriesPerDocument: 2 }).documents);
    const team = await sqlQuery(berth, 'select uid from groups where parent_uid is null and uid <> $1', [berth.orgUid]);
    assert.deepEqual(team, [], 'the import created no group');
    const r = await importJson(berth, other, '--group', berth.orgUid, '--arch', 'x86_64,aarch64');
    assert.equal(r.group, berth.orgUid);
    assert.equal(r.added, 4, 'two advisories × two architectures');
    assert.equal(await count(berth, "select count(*) as n from advisories where parent_uid = $1 and artifact_architecture = 'aarch64'", [berth.orgUid]), 2);
    const missing = await importCli(berth, [other, '--group', 'f'.repeat(40)]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /--group: no group f{40}/);
  });

  it('prints the totals, and each file with --verbose', async () => {
    const r = await importCli(berth, [dir, '--verbose', '--force']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\+0 added ~0 changed -0 removed/);
    assert.ok(r.stdout.includes(`${feed.documents[2].origin}.advisories.yaml`));
    assert.ok(readFileSync(join(dir, `${feed.documents[2].origin}.advisories.yaml`), 'utf8').includes('schema-version: 2.0.2'));
  });
});
