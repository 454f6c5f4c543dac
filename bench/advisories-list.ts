// Advisories list benchmark: seeds N advisories (default 100,000) straight
// into the store, with aliases and events, then measures ListAdvisories p50
// and p99 over sequential requests for: no filter, one artifactNames, five
// aliases, a query substring, and review state + excluded author — each
// against a bare keyset route over the same tables in the same run
// (bench/advisories-bare-server.ts). Then `query` is compared with a trigram
// index: PostgreSQL's pg_trgm GIN index on advisories.search (Berth's own
// LIKE, re-measured with the index), SQLite's FTS5 trigram table (bare route
// only: Berth's LIKE cannot use it).
// Usage: npm run bench:advisories-list [-- --count N --samples S --database postgres://… (a fresh database)]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { nowIso } from '../src/core/clock.js';
import { openStore } from '../src/store/store.js';
import { advisoryUid, mintAdvisoryId } from '../src/vulnerabilities/advisory-ids.js';
import { searchText } from '../src/vulnerabilities/advisory-rows.js';
import type { AdvisoriesTable, AdvisoryAliasesTable, AdvisoryEventsTable } from '../src/vulnerabilities/advisory-tables.js';
import { freePort, startNode, stopProcess } from './bench-process.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    samples: { type: 'string', default: '300' },
    database: { type: 'string' },
  },
});
const COUNT = Number(values.count);
const SAMPLES = Number(values.samples);
const WARMUP = Math.max(10, Math.floor(SAMPLES / 10));
const NAMES = Math.max(10, Math.floor(COUNT / 50));
const AUTHORS = ['alice@example.com', 'bob@example.com', 'carol@example.com'];
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const BARE = join(import.meta.dirname, 'advisories-bare-server.js');
const postgres = values.database !== undefined;

async function seed(dataDir: string, org: string): Promise<string[]> {
  const t0 = performance.now();
  const store = await openStore({ dataDir, databaseUrl: values.database });
  const now = nowIso();
  const aliases: string[] = [];
  const BATCH = 1000;
  for (let start = 0; start < COUNT; start += BATCH) {
    const rows: AdvisoriesTable[] = [];
    const aliasRows: AdvisoryAliasesTable[] = [];
    const events: AdvisoryEventsTable[] = [];
    for (let i = start; i < Math.min(COUNT, start + BATCH); i++) {
      const artifactName = `pkg-${i % NAMES}`;
      const componentName = i % 3 === 0 ? `mod-${i % 997}` : artifactName;
      const advisoryId = mintAdvisoryId(['bench', String(i)]);
      const own = Array.from({ length: 1 + (i % 3) }, (_, k) => `CVE-${2020 + k}-${String(10000 + i).padStart(6, '0')}`);
      aliases.push(own[0]);
      const identity = { advisoryId, artifactName, artifactArchitecture: 'x86_64', componentName, componentLocation: './PKGINFO' };
      const uid = advisoryUid(org, identity);
      const pending = i % 5 === 0;
      rows.push({
        uid,
        parent_uid: org,
        advisory_id: advisoryId,
        legacy_advisory_id: null,
        origin: artifactName,
        package_namespace: '',
        author: 'import:yaml',
        artifact_name: artifactName,
        artifact_type: 'apk',
        artifact_architecture: 'x86_64',
        component_name: componentName,
        component_type: 'apk',
        component_location: './PKGINFO',
        aliases: JSON.stringify(own),
        search: searchText(artifactName, componentName, own),
        latest_event_type: pending ? 1 : 3,
        source: 'yaml',
        source_file: '',
        create_time: now,
        update_time: now,
      });
      for (const alias of own) aliasRows.push({ advisory_uid: uid, alias });
      const event = (n: number, type: number, author: string, state: number, data: string) => ({
        uid: `${uid}/${n.toString(16).padStart(16, '0')}`,
        advisory_uid: uid,
        create_time: new Date(Date.parse('2024-01-01T00:00:00Z') + n * 1000).toISOString(),
        update_time: now,
        author,
        reviewer: '',
        review_state: state,
        type,
        data,
        findings: null,
        issue: null,
        content_hash: n.toString(16).padStart(16, '0'),
      });
      events.push(event(1, 1, 'import:yaml', 2, '{"detection":{"manual":{}}}'));
      events.push(
        pending
          ? event(2, 3, AUTHORS[i % AUTHORS.length], 1, '{"fixed":{"fixedVersion":"1.0-r1"}}')
          : event(2, 3, 'import:yaml', 2, '{"fixed":{"fixedVersion":"1.0-r1"}}'),
      );
    }
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto('advisories').values(rows).execute();
      await trx.insertInto('advisory_aliases').values(aliasRows).execute();
      await trx.insertInto('advisory_events').values(events).execute();
    });
  }
  if (!postgres) {
    // The SQLite trigram candidate: an external-content FTS5 table over advisories.search.
    await sql`create virtual table advisories_fts using fts5(search, content='advisories', content_rowid='rowid', tokenize='trigram')`.execute(store.db);
    await sql`insert into advisories_fts(advisories_fts) values('rebuild')`.execute(store.db);
  }
  await sql`analyze`.execute(store.db);
  await store.close();
  console.log(`seeded ${COUNT} advisories, ${aliases.length * 2} aliases, ${COUNT * 2} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return aliases;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Sequential GETs: p50 and p99 in ms, after a warm-up. */
async function measure(url: () => string, headers: Record<string, string> = {}): Promise<{ p50: number; p99: number; rows: number }> {
  let rows = 0;
  const once = async () => {
    const res = await fetch(url(), { headers });
    if (!res.ok) throw new Error(`${url()}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { advisories: unknown[] };
    rows = body.advisories.length;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await once();
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), rows };
}

const fmt = (r: { p50: number; p99: number; rows: number }) => `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms (${r.rows} rows)`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-adv-'));
  const port = await freePort();
  const serveArgs = [CLI, 'serve', '--listen', `127.0.0.1:${port}`, '--registry-listen', 'off', '--data', dataDir, '--log-level', 'warn'];
  if (values.database) serveArgs.push('--database', values.database);
  const serving = /berth is serving at (http\S+)/;
  const startBerth = async () => {
    const s = await startNode(serveArgs, serving);
    return { child: s.child, url: s.match[1] };
  };
  await stopProcess((await startBerth()).child);
  const creds = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { organization: { uid: string } };
  const aliases = await seed(dataDir, creds.organization.uid);

  const berth = await startBerth();
  const { spawnSync } = await import('node:child_process');
  const token = spawnSync(process.execPath, [CLI, 'auth', 'token', '--credentials', join(dataDir, 'admin-credentials.json'), '--api', berth.url], {
    encoding: 'utf8',
  }).stdout.trim();
  const auth = { authorization: `Bearer ${token}` };
  const bare = await startNode([BARE, values.database ?? join(dataDir, 'berth.db')], /bare at (http\S+)/);
  const bareUrl = bare.match[1];

  const five = [0, 1, 2, 3, 4].map((k) => aliases[Math.floor(((k + 1) * aliases.length) / 7)]);
  const artifact = `pkg-${Math.floor(NAMES / 3)}`;
  const substring = 'kg-17';
  const cases: Array<{ name: string; berth: string; bare: string }> = [
    { name: 'no filter', berth: '', bare: 'case=none' },
    { name: 'one artifactNames', berth: `artifactNames=${artifact}`, bare: `case=artifact&v=${artifact}` },
    { name: 'five aliases', berth: five.map((a) => `aliases=${a}`).join('&'), bare: `case=aliases&${five.map((a) => `v=${a}`).join('&')}` },
    { name: `query "${substring}"`, berth: `query=${substring}`, bare: `case=query&v=${substring}` },
    {
      name: 'review state + exclude author',
      berth: `eventReviewStates=REVIEW_STATE_PENDING&excludeEventAuthors=${encodeURIComponent(AUTHORS[0])}`,
      bare: `case=review&v=${encodeURIComponent(AUTHORS[0])}`,
    },
  ];
  console.log(
    `\n${COUNT} advisories, ${postgres ? 'PostgreSQL' : 'SQLite'}, ${SAMPLES} sequential requests per figure (after ${WARMUP} warm-up), page size 50\n`,
  );
  const table: string[] = [];
  for (const c of cases) {
    const b = await measure(() => `${berth.url}/vulnerabilities/v2/advisories?pageSize=50&${c.berth}`, auth);
    const r = await measure(() => `${bareUrl}/advisories?${c.bare}`);
    table.push(`${c.name.padEnd(32)} Berth ${fmt(b)} | bare ${fmt(r)} | Berth/bare p50 ${(r.p50 / b.p50).toFixed(2)}`);
    console.log(table[table.length - 1]);
  }

  console.log('\nquery: LIKE over the lowered search column vs a trigram index');
  const likeBerth = await measure(() => `${berth.url}/vulnerabilities/v2/advisories?pageSize=50&query=${substring}`, auth);
  const likeBare = await measure(() => `${bareUrl}/advisories?case=query&v=${substring}`);
  if (postgres) {
    const store = await openStore({ dataDir, databaseUrl: values.database });
    await sql`create extension if not exists pg_trgm`.execute(store.db);
    await sql`create index if not exists advisories_search_trgm on advisories using gin (search gin_trgm_ops)`.execute(store.db);
    await sql`analyze advisories`.execute(store.db);
    await store.close();
  }
  const triBare = await measure(() => `${bareUrl}/advisories?case=query_trigram&v=${substring}`);
  console.log(`LIKE     Berth ${fmt(likeBerth)} | bare ${fmt(likeBare)}`);
  if (postgres) {
    const triBerth = await measure(() => `${berth.url}/vulnerabilities/v2/advisories?pageSize=50&query=${substring}`, auth);
    console.log(`pg_trgm  Berth ${fmt(triBerth)} | bare ${fmt(triBare)}`);
  } else {
    console.log(`FTS5 trigram (bare route only)  ${fmt(triBare)}`);
  }
  await stopProcess(bare.child);
  await stopProcess(berth.child);
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
