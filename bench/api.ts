// API benchmark: seeds 100,000 repos across nested groups, then measures GET
// one repo, list 50 (page 1 and page 1,000 via tokens, order_by=name) and
// create, each against its baseline: bare Fastify routes over the same driver
// and the same seeded table (bench/bare-server.ts), measured in the same run.
// One server runs at a time; with two cores or more the servers are pinned to
// core 0 and this process (the load generator) to core 1. Three runs, medians.
// Each measurement follows a warm-up of the same requests (default 5 s):
// a freshly started server is still compiling its hot paths, and latency
// figures of its first seconds are of that, not of the server (the same with
// other heap settings, so not garbage collection; docs/performance.md).
// GET and list 50 are also measured on a server started with metrics and the
// access log off (--metrics off --access-log off), beside it in the same run: the
// figures above are with both on (the defaults, the access log at info level,
// written to this process through a pipe), and the cost of both is the
// ratio of the two (aim: ≤ 5 %).
// Usage: npm run bench:api [-- --repos N --seconds S --warmup-seconds W --connections C --runs R
//          --database postgres://… (a fresh database) --profile DIR --observability]
// --observability: only GET and list 50 with metrics and the access log on and
// off, --runs rounds alternating which goes first (bench/api-observability.ts);
// --on-flags "…" gives the "on" server flags of its own (e.g. "--access-log off").
// --profile: instead of the runs, profiles the server (node --cpu-prof) under
// list 50 and GET load and prints where its time goes, then the bare routes.
// With --observability, profiles GET with metrics and the access log on, then off.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { nowIso } from '../src/core/clock.js';
import { newChildUid } from '../src/core/uidp.js';
import { cpuTimeUs, freePort, median, medianResult, PIN, pinLoadToCore1, startNode, stopProcess } from './bench-process.js';
import { formatResult, runLoad, type LoadResult, type RequestSpec } from './load.js';
import { formatSummary, mainProfile } from './profile-summary.js';
import { benchObservability } from './api-observability.js';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '5' },
    'warmup-seconds': { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
    database: { type: 'string' },
    profile: { type: 'string' },
    observability: { type: 'boolean', default: false },
    /** With --observability: flags for the "on" server, to measure one part alone (e.g. "--access-log off"). */
    'on-flags': { type: 'string', default: '' },
    'seed-into': { type: 'string' },
    'seed-org': { type: 'string' },
    /** Internal: VACUUM ANALYZE this PostgreSQL database and exit. */
    settle: { type: 'string' },
  },
});
const REPOS = Number(values.repos);
const SECONDS = Number(values.seconds);
const WARMUP_SECONDS = Number(values['warmup-seconds']);
if (!Number.isFinite(WARMUP_SECONDS) || WARMUP_SECONDS < 0) throw new Error('--warmup-seconds must be a number of seconds, 0 or more');
const CONNECTIONS = Number(values.connections);
const RUNS = Number(values.runs);
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js'); // dist/bench → dist/src
let nameSeq = 0; // names of created repos, unique across warm-ups and runs
const BARE = join(import.meta.dirname, 'bare-server.js');

pinLoadToCore1(); // servers on core 0, load on core 1, when there are two cores and taskset

async function measure(url: string, next: (i: number) => RequestSpec, server?: ChildProcess): Promise<LoadResult> {
  await runLoad(url, next, CONNECTIONS, WARMUP_SECONDS);
  const before = cpuTimeUs(server?.pid);
  const r = await runLoad(url, next, CONNECTIONS, SECONDS);
  const after = cpuTimeUs(server?.pid);
  if (before !== undefined && after !== undefined) r.cpuUs = (after - before) / r.requests;
  return r;
}

/** Both servers under load at once, half the connections each, CPU per request over the same window. */
async function measureTogether(
  a: { url: string; child: ChildProcess },
  b: { url: string; child: ChildProcess },
  next: (i: number) => RequestSpec,
): Promise<[LoadResult, LoadResult]> {
  const half = Math.max(1, CONNECTIONS / 2);
  await Promise.all([runLoad(a.url, next, half, WARMUP_SECONDS), runLoad(b.url, next, half, WARMUP_SECONDS)]);
  const before = [cpuTimeUs(a.child.pid), cpuTimeUs(b.child.pid)];
  const rs = await Promise.all([runLoad(a.url, next, half, SECONDS), runLoad(b.url, next, half, SECONDS)]);
  const after = [cpuTimeUs(a.child.pid), cpuTimeUs(b.child.pid)];
  rs.forEach((r, i) => {
    const [s, e] = [before[i], after[i]];
    if (s !== undefined && e !== undefined) r.cpuUs = (e - s) / r.requests;
  });
  return [rs[0], rs[1]];
}

/**
 * On PostgreSQL, VACUUM ANALYZE before the next measurement: a create phase
 * inserts tens of thousands of rows, and the autovacuum they set off would
 * otherwise share the machine with whichever phase came next (seen as a
 * higher list p99 in every run but the first; docs/performance.md). Run by a
 * child process, so this one never loads a database driver (see the seeder).
 */
async function settle(): Promise<void> {
  if (!values.database) return;
  const child = spawn(process.execPath, [process.argv[1], '--settle', values.database], { stdio: 'inherit' });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`VACUUM ANALYZE failed (exit ${code})`);
}

async function vacuumAnalyze(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

async function seed(dataDir: string, org: string): Promise<void> {
  const t0 = performance.now();
  const { openStore } = await import('../src/store/store.js'); // never in the load generator (see main)
  const store = await openStore({ dataDir, databaseUrl: values.database });
  const groups: string[] = [org];
  const now = nowIso();
  await store.db.transaction().execute(async (trx) => {
    // 10 teams × 10 projects: repos spread over 111 groups at three depths.
    for (let t = 0; t < 10; t++) {
      const team = newChildUid(org);
      await trx
        .insertInto('groups')
        .values({ uid: team, parent_uid: org, name: `team-${t}`, description: '', verified: 0, create_time: now, update_time: now })
        .execute();
      groups.push(team);
      for (let p = 0; p < 10; p++) {
        const proj = newChildUid(team);
        await trx
          .insertInto('groups')
          .values({ uid: proj, parent_uid: team, name: `project-${p}`, description: '', verified: 0, create_time: now, update_time: now })
          .execute();
        groups.push(proj);
      }
    }
    const batch = 500;
    for (let i = 0; i < REPOS; i += batch) {
      const rows = [];
      for (let k = i; k < Math.min(REPOS, i + batch); k++) {
        const parent = groups[k % groups.length];
        rows.push({
          uid: newChildUid(parent),
          parent_uid: parent,
          name: `repo-${String(k).padStart(6, '0')}`,
          description: 'seeded',
          readme: '',
          create_time: now,
          update_time: now,
        });
      }
      await trx.insertInto('repos').values(rows).execute();
    }
  });
  await store.close();
  console.log(`seeded ${REPOS} repos in ${groups.length} groups in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

interface Figures {
  get: LoadResult;
  list1: LoadResult;
  /** With metrics and the access log off. */
  quietGet: LoadResult;
  quietList: LoadResult;
  list1000: LoadResult;
  create: LoadResult;
  bareGet: LoadResult;
  bareList: LoadResult;
  bareInsert: LoadResult;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  // One port for every start: tokens carry the server's URL as their audience.
  const port = await freePort();
  // Metrics and the access log on (the defaults; info level lets the access log through).
  const serveArgs = [CLI, 'serve', '--listen', `127.0.0.1:${port}`, '--registry-listen', 'off', '--data', dataDir, '--log-level', 'info'];
  if (values.database) serveArgs.push('--database', values.database);
  const serving = /berth is serving at (http\S+)/;
  const startBerth = async (nodeFlags: string[] = [], extra: string[] = [], stdout: number | 'pipe' = 'pipe') => {
    const s = await startNode([...nodeFlags, ...serveArgs, ...extra], serving, stdout);
    return { child: s.child, url: s.match[1] };
  };
  const QUIET = ['--metrics', 'off', '--access-log', 'off'];
  const quietPort = await freePort();

  // First start creates the organization, then the server stops and we seed.
  await stopProcess((await startBerth()).child);
  const creds = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { organization: { uid: string } };
  const org = creds.organization.uid;
  // Seeded by a child process, so this process (the load generator) never
  // loads the store: with Kysely and its driver loaded here, the client's own
  // garbage collections stalled it and its pauses showed as the server's p99
  // latency, the bare baseline's alike (docs/performance.md).
  const seeder = spawn(process.execPath, [process.argv[1], ...process.argv.slice(2), '--seed-into', dataDir, '--seed-org', org], { stdio: 'inherit' });
  const seeded = await new Promise<number | null>((r) => seeder.once('exit', r));
  if (seeded !== 0) throw new Error(`seeding failed (exit ${seeded})`);
  await settle();

  let berth = await startBerth();
  const tokenProc = spawn(process.execPath, [CLI, 'auth', 'token', '--credentials', join(dataDir, 'admin-credentials.json'), '--api', berth.url]);
  let token = '';
  tokenProc.stdout.on('data', (c: Buffer) => (token += c.toString()));
  await new Promise((r) => tokenProc.once('exit', r));
  const auth = { authorization: `Bearer ${token.trim()}` };

  const list = async (path: string) => {
    const res = await fetch(`${berth.url}${path}`, { headers: auth });
    return (await res.json()) as { repos: Array<{ uid: string }>; nextPageToken: string };
  };
  const first = await list('/registry/v2/repos?page_size=50&order_by=name');
  const someRepo = first.repos[0].uid;
  let pageToken = first.nextPageToken;
  for (let i = 2; i < 1000; i++)
    pageToken = (await list(`/registry/v2/repos?page_size=50&order_by=name&page_token=${encodeURIComponent(pageToken)}`)).nextPageToken;
  await stopProcess(berth.child);
  const page1000 = `/registry/v2/repos?page_size=50&order_by=name&page_token=${encodeURIComponent(pageToken)}`;
  const getSpec = (): RequestSpec => ({ method: 'GET', path: `/registry/v2/repos/${someRepo}`, headers: auth });
  const listSpec = (): RequestSpec => ({ method: 'GET', path: '/registry/v2/repos?page_size=50&order_by=name', headers: auth });

  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s each (after ${WARMUP_SECONDS} s warm-up), ${REPOS} repos, ${values.database ? 'PostgreSQL' : 'SQLite'}, ${PIN ? 'servers on core 0, load on core 1' : 'not pinned'}\n`,
  );

  if (values.observability && values.profile) {
    // Where the observability's cost goes: the same GET under the profiler with both on and both
    // off; the function tables of the two, read side by side, show what the on server adds.
    const log = openSync(join(dataDir, 'access.log'), 'a');
    for (const [name, extra] of [
      ['GET, metrics and access log on', []],
      ['GET, both off', QUIET],
    ] as const) {
      const dir = join(values.profile, name.replace(/\W+/g, '-'));
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      berth = await startBerth(['--cpu-prof', '--cpu-prof-dir', dir], [...extra], log);
      const r = await measure(berth.url, getSpec, berth.child);
      await stopProcess(berth.child);
      console.log(formatResult(name, r));
      console.log(formatSummary(`profile of ${name}`, mainProfile(dir), undefined, 30));
    }
    closeSync(log);
  } else if (values.observability) {
    // The JSON log goes to a file (written through, as for a log shipper that tails it), not to a
    // pipe this process drains: under other load this process, the load generator, fell behind
    // reading, and the server's blocking writes to a full pipe were timed as the log's cost.
    const log = openSync(join(dataDir, 'access.log'), 'a');
    const onFlags = values['on-flags'].split(/\s+/).filter(Boolean);
    const startOn = () => startBerth([], onFlags, log);
    const startOff = () => startBerth([], [...QUIET, '--listen', `127.0.0.1:${quietPort}`, '--public-url', `http://127.0.0.1:${port}`], log);
    const startPair = async (round: number) => {
      const onFirst = Math.floor(round / 2) % 2 === 0;
      const first = await (onFirst ? startOn() : startOff());
      const second = await (onFirst ? startOff() : startOn());
      const [on, off] = onFirst ? [first, second] : [second, first];
      return {
        on,
        off,
        stop: async () => {
          await stopProcess(off.child);
          await stopProcess(on.child);
        },
      };
    };
    const database = values.database ?? join(dataDir, 'berth.db');
    const startFloor = async () => {
      const bare = async (...observe: string[]) => {
        const s = await startNode([BARE, database, ...observe], /bare at (http\S+)/);
        return { url: s.match[1], child: s.child };
      };
      const servers = {
        documented: await bare('--observe', 'documented', join(dataDir, 'bare-documented.log')),
        lean: await bare('--observe', 'lean', join(dataDir, 'bare-lean.log')),
        off: await bare(),
      };
      return { ...servers, stop: async () => void (await Promise.all(Object.values(servers).map((s) => stopProcess(s.child)))) };
    };
    const floor = {
      start: startFloor,
      specs: {
        'GET one repo': (): RequestSpec => ({ method: 'GET', path: `/repos/${someRepo}` }),
        'list 50': (): RequestSpec => ({ method: 'GET', path: '/repos' }),
      },
    };
    await benchObservability(startPair, { 'GET one repo': getSpec, 'list 50': listSpec }, RUNS, measure, measureTogether, floor);
    closeSync(log);
  } else if (values.profile) {
    for (const [name, spec] of [
      ['list 50, page 1', listSpec],
      ['GET one repo', getSpec],
    ] as const) {
      const dir = join(values.profile, name.replace(/\W+/g, '-'));
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      berth = await startBerth(['--cpu-prof', '--cpu-prof-dir', dir]);
      const r = await measure(berth.url, spec, berth.child);
      await stopProcess(berth.child);
      console.log(formatResult(name, r));
      console.log(formatSummary(`profile of ${name}`, mainProfile(dir)));
    }
    // The baseline under the same profiler, so each part's cost can be read
    // against what the bare route spends on the same sockets and driver.
    for (const [name, path] of [
      ['bare list 50', '/repos'],
      ['bare GET', `/repos/${someRepo}`],
    ] as const) {
      const dir = join(values.profile, name.replace(/\W+/g, '-'));
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const bare = await startNode(['--cpu-prof', '--cpu-prof-dir', dir, BARE, values.database ?? join(dataDir, 'berth.db')], /bare at (http\S+)/);
      const r = await measure(bare.match[1], () => ({ method: 'GET', path }), bare.child);
      await stopProcess(bare.child);
      console.log(formatResult(name, r));
      console.log(formatSummary(`profile of ${name}`, mainProfile(dir)));
    }
  } else {
    const runs: Figures[] = [];
    for (let run = 0; run < RUNS; run++) {
      berth = await startBerth();
      // The same server with metrics and the access log off runs beside it (same
      // database, same public URL, so the same token), idle while the other is
      // measured: each pair is measured back to back, seconds apart, which one
      // first alternating between runs.
      const quiet = await startBerth([], [...QUIET, '--listen', `127.0.0.1:${quietPort}`, '--public-url', `http://127.0.0.1:${port}`]);
      const pair = async (spec: () => RequestSpec): Promise<[LoadResult, LoadResult]> => {
        if (run % 2 === 1) {
          const off = await measure(quiet.url, spec, quiet.child);
          return [await measure(berth.url, spec, berth.child), off];
        }
        const on = await measure(berth.url, spec, berth.child);
        return [on, await measure(quiet.url, spec, quiet.child)];
      };
      const [get, quietGet] = await pair(getSpec);
      const [list1, quietList] = await pair(listSpec);
      await stopProcess(quiet.child);
      const list1000 = await measure(berth.url, () => ({ method: 'GET', path: page1000, headers: auth }), berth.child);
      const create = await measure(
        berth.url,
        () => ({
          method: 'POST',
          path: `/registry/v2/repos/${org}`,
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `bench-${process.pid}-${nameSeq++}` }),
        }),
        berth.child,
      );
      await stopProcess(berth.child);
      await settle();

      const bare = await startNode([BARE, values.database ?? join(dataDir, 'berth.db')], /bare at (http\S+)/);
      const bareUrl = bare.match[1];
      const bareGet = await measure(bareUrl, () => ({ method: 'GET', path: `/repos/${someRepo}` }), bare.child);
      const bareList = await measure(bareUrl, () => ({ method: 'GET', path: '/repos' }), bare.child);
      const bareInsert = await measure(
        bareUrl,
        () => ({
          method: 'POST',
          path: `/repos/${org}`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `bare-${process.pid}-${nameSeq++}` }),
        }),
        bare.child,
      );
      await stopProcess(bare.child);
      await settle();
      runs.push({ get, list1, quietGet, quietList, list1000, create, bareGet, bareList, bareInsert });
      console.log(
        `run ${run + 1}: GET ${get.rps.toFixed(0)}/${bareGet.rps.toFixed(0)}, list ${list1.rps.toFixed(0)}/${bareList.rps.toFixed(0)}, page 1,000 ${list1000.rps.toFixed(0)}, create ${create.rps.toFixed(0)}/${bareInsert.rps.toFixed(0)} req/s (Berth/bare); list p99 ${list1.p99.toFixed(1)}/${bareList.p99.toFixed(1)} ms; metrics and access log off: GET ${quietGet.rps.toFixed(0)}, list ${quietList.rps.toFixed(0)} req/s`,
      );
    }
    const m = (k: keyof Figures) => medianResult(runs.map((r) => r[k]));
    const f = {
      get: m('get'),
      list1: m('list1'),
      quietGet: m('quietGet'),
      quietList: m('quietList'),
      list1000: m('list1000'),
      create: m('create'),
      bareGet: m('bareGet'),
      bareList: m('bareList'),
      bareInsert: m('bareInsert'),
    };
    // Ratios are taken within each run (Berth and its baseline measured minutes
    // apart on the same machine), then the median of those.
    const ratio = (a: keyof Figures, b: keyof Figures) => median(runs.map((r) => r[a].rps / r[b].rps));
    const r = {
      get: ratio('get', 'bareGet'),
      list1: ratio('list1', 'bareList'),
      list1000: ratio('list1000', 'bareList'),
      create: ratio('create', 'bareInsert'),
    };
    const pct = (x: number) => `${(x * 100).toFixed(0)} % of baseline`;
    console.log(`\nmedians of ${RUNS} runs`);
    console.log(`${formatResult('baseline: bare GET by uid', f.bareGet)}`);
    console.log(`${formatResult('GET one repo', f.get)}   ${pct(r.get)}`);
    console.log(`${formatResult('baseline: bare keyset list 50', f.bareList)}`);
    console.log(`${formatResult('list 50, page 1 (order_by=name)', f.list1)}   ${pct(r.list1)}`);
    console.log(`${formatResult('list 50, page 1,000 (token)', f.list1000)}   ${pct(r.list1000)}`);
    console.log(`${formatResult('baseline: bare insert', f.bareInsert)}`);
    console.log(`${formatResult('create repo', f.create)}   ${pct(r.create)}`);
    // Metrics and the access log: on (the figures above) against off, within each run.
    const obs = { get: ratio('get', 'quietGet'), list1: ratio('list1', 'quietList') };
    console.log(`${formatResult('GET one repo, metrics and access log off', f.quietGet)}   on: ${pct(obs.get).replace('baseline', 'off')}`);
    console.log(`${formatResult('list 50, metrics and access log off', f.quietList)}   on: ${pct(obs.list1).replace('baseline', 'off')}`);
    // The same comparison by server CPU per request, which other load on the
    // machine does not move: the share of the baseline's rate Berth would
    // reach with the core to itself.
    const cpuRatio = (a: keyof Figures, b: keyof Figures) =>
      runs.every((x) => x[a].cpuUs && x[b].cpuUs) ? median(runs.map((x) => x[b].cpuUs! / x[a].cpuUs!)) : NaN;
    const c = {
      get: cpuRatio('get', 'bareGet'),
      list1: cpuRatio('list1', 'bareList'),
      list1000: cpuRatio('list1000', 'bareList'),
      create: cpuRatio('create', 'bareInsert'),
    };
    console.log(
      `\nby server CPU per request (baseline µs / Berth µs): GET ${pct(c.get)}, list 50 ${pct(c.list1)}, page 1,000 ${pct(c.list1000)}, create ${pct(c.create)}`,
    );
    const obsCpu = { get: cpuRatio('quietGet', 'get'), list1: cpuRatio('quietList', 'list1') };
    const costPct = (x: number) => `${((1 - x) * 100).toFixed(1)} %`;
    const cpuCost = (x: number) => `${((x - 1) * 100).toFixed(1)} %`; // on µs / off µs − 1
    console.log(`metrics and access log, server CPU per request over off: GET +${cpuCost(obsCpu.get)}, list 50 +${cpuCost(obsCpu.list1)}`);
    const aim = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(`\naims:`);
    console.log(`  list 50 ≥ 50 % of bare keyset list: ${pct(r.list1)} (${aim(r.list1 >= 0.5)})`);
    console.log(`  list 50 p99 ≤ 12 ms: ${f.list1.p99.toFixed(1)} ms (${aim(f.list1.p99 <= 12)})`);
    console.log(`  GET ≥ 50 % of bare GET: ${pct(r.get)} (${aim(r.get >= 0.5)})`);
    console.log(`  page 1,000 ≤ 1.2 × page 1 (p50): ${(f.list1000.p50 / f.list1.p50).toFixed(2)}× (${aim(f.list1000.p50 <= 1.2 * f.list1.p50)})`);
    console.log(`  create ≥ 40 % of bare insert: ${pct(r.create)} (${aim(r.create >= 0.4)})`);
    console.log(`  metrics and access log ≤ 5 % of GET (req/s): ${costPct(obs.get)} (${aim(obs.get >= 0.95)})`);
    console.log(`  metrics and access log ≤ 5 % of list 50 (req/s): ${costPct(obs.list1)} (${aim(obs.list1 >= 0.95)})`);
  }
  rmSync(dataDir, { recursive: true, force: true });
}

if (values['seed-into'] && values['seed-org']) await seed(values['seed-into'], values['seed-org']);
else if (values.settle) await vacuumAnalyze(values.settle);
else await main();
