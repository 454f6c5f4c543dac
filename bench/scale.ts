// PostgreSQL at size (issue 28 §4): two databases seeded the same way in the
// same run — a large one (default 1,000,000 repos in 10,000 groups, 10
// tags each, a history record per tag, and one tag moved 100,000 times) and a
// small one (10,000 repos, the same shape, the same moving tag) —
// (bench/scale-seed.ts), then, on each, p50/p99 of GET one repo, list 50 (page 1 by
// name, page 10,000 by cursor, uidp.descendants_of of a team, name desc),
// create, the moving tag's history (first page and a deep one) and totalCount
// (a list right after a write, so its total cannot come from the cache).
// Large and small alternate run after run, and each large list is measured
// beside a bare keyset route over the large database in its own process
// (bench/scale-bare-server.ts). Then every SELECT one request of each case
// ran (recorded by bench/sql-recorder.ts in a Berth process of its own) is
// EXPLAIN ANALYZEd and printed. Checks: every p99 at size ≤ 1.5 × small's,
// each list ≥ 50 % of the bare route's req/s at size, no Seq Scan on a big
// table; exit 1 when one fails.
// Usage: npm run bench:scale -- --database postgres://user:pass@host/db (an admin connection;
//   the bench creates, and at the end drops, its two databases)
//   [--repos N --small-repos N --moves N --seconds S --warmup-seconds W --connections C --runs R
//    --writes N (totalCount samples) --keep (leave the databases and data directories) --reuse (use kept ones)]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, median, medianResult, pinLoadToCore1, spawnPinned, startNode, stopProcess, waitFor } from './bench-process.js';
import { measurePhase } from './measure-load.js';
import { formatResult, type LoadResult, type RequestSpec } from './load.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    repos: { type: 'string', default: '1000000' },
    'small-repos': { type: 'string', default: '10000' },
    moves: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '5' },
    'warmup-seconds': { type: 'string', default: '2' },
    connections: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    writes: { type: 'string', default: '200' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    /** Internal: the explain step, in a child process (this one loads no database driver). */
    explain: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP = Number(values['warmup-seconds']);
const CONNECTIONS = Number(values.connections);
const RUNS = Number(values.runs);
const WRITES = Number(values.writes);
const MOVES = Number(values.moves);
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const HERE = import.meta.dirname;
const md5 = (s: string) => createHash('md5').update(s).digest('hex').slice(0, 16);

interface Db {
  label: 'large' | 'small';
  repos: number;
  url: string;
  dataDir: string;
  port: number;
}

function dbUrl(admin: string, name: string): string {
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
}

async function psql(admin: string, sql: string): Promise<void> {
  const child = spawn('psql', ['-v', 'ON_ERROR_STOP=1', '-q', admin, '-c', sql], { stdio: 'inherit' });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`psql failed: ${sql}`);
}

function serveArgs(db: Db): string[] {
  return [CLI, 'serve', '--listen', `127.0.0.1:${db.port}`, '--registry-listen', 'off', '--data', db.dataDir, '--database', db.url, '--log-level', 'warn'];
}

async function startBerth(db: Db) {
  const s = await startNode(serveArgs(db), /berth is serving at (http\S+)/);
  return { child: s.child, url: s.match[1] };
}

async function run(cmd: string, args: string[]): Promise<void> {
  const child = spawn(cmd, args, { stdio: 'inherit' });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${code}`);
}

/** Creates, migrates (by starting Berth once) and seeds the database, unless --reuse finds it seeded. */
async function prepare(admin: string, db: Db): Promise<string> {
  const creds = join(db.dataDir, 'admin-credentials.json');
  const seeded = join(db.dataDir, 'seeded');
  if (!(values.reuse && existsSync(seeded))) {
    const name = new URL(db.url).pathname.slice(1);
    await psql(admin, `drop database if exists ${name} with (force)`);
    await psql(admin, `create database ${name}`);
    rmSync(db.dataDir, { recursive: true, force: true });
    mkdirSync(db.dataDir, { recursive: true });
    await stopProcess((await startBerth(db)).child);
    const org = (JSON.parse(readFileSync(creds, 'utf8')) as { organization: { uid: string } }).organization.uid;
    console.log(`seeding the ${db.label} database (${db.repos} repos)`);
    await run(process.execPath, [join(HERE, 'scale-seed.js'), db.url, org, String(db.repos), String(MOVES)]);
    writeFileSync(seeded, '');
  }
  return (JSON.parse(readFileSync(creds, 'utf8')) as { organization: { uid: string } }).organization.uid;
}

interface Case {
  label: string;
  list?: boolean;
  /** The request on the large (or small) database. */
  spec: (i: number) => RequestSpec;
  /** The bare route's request (large database only). */
  bare?: (i: number) => RequestSpec;
}

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** The cases on one database: the paths are worked out from the seed's deterministic uids and from Berth's own answers. */
async function casesFor(db: Db, org: string, url: string, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const team = `${org}/${md5('team 0')}`;
  const project = `${team}/${md5('project 0')}`;
  const repos = '/registry/v2/repos?page_size=50';
  const moving = `repo-${String(Math.floor(db.repos / 2)).padStart(7, '0')}`;
  const repo = (await json<{ repos: Array<{ uid: string }> }>(`${url}${repos}&name=${moving}`, { headers })).repos[0].uid;
  const tag = `${repo}/${md5(`${repo} 0`)}`;
  // Page P by cursor: the page before it reached by skip, whose token continues at page P.
  const pageN = Math.min(10_000, Math.floor(db.repos / 100));
  const before = await json<{ repos: Array<{ uid: string; name: string }>; nextPageToken: string }>(`${url}${repos}&order_by=name&skip=${(pageN - 2) * 50}`, {
    headers,
  });
  const last = before.repos[before.repos.length - 1];
  const deepStart = new Date(Date.parse('2026-01-01T00:00:00Z') + Math.floor(MOVES / 2) * 1000).toISOString();
  let created = 0;
  const get = (path: string) => (): RequestSpec => ({ method: 'GET', path, headers });
  const cases: Case[] = [
    { label: 'GET one repo', spec: get(`/registry/v2/repos/${repo}`) },
    { label: 'list 50, page 1 (name)', list: true, spec: get(`${repos}&order_by=name`), bare: get('/repos') },
    {
      label: `list 50, page ${pageN} (cursor)`,
      list: true,
      spec: get(`${repos}&order_by=name&page_token=${encodeURIComponent(before.nextPageToken)}`),
      bare: get(`/repos?after=${last.name}&after_uid=${encodeURIComponent(last.uid)}`),
    },
    {
      label: 'list 50, descendants_of a team',
      list: true,
      spec: get(`${repos}&uidp.descendants_of=${encodeURIComponent(team)}`),
      bare: get(`/repos?low=${encodeURIComponent(`${team}/`)}&high=${encodeURIComponent(`${team}0`)}`),
    },
    { label: 'list 50, name desc', list: true, spec: get(`${repos}&order_by=${encodeURIComponent('name desc')}`), bare: get('/repos?desc') },
    {
      label: 'create repo',
      spec: () => ({
        method: 'POST',
        path: `/registry/v2/repos/${project}`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `bench-${process.pid}-${db.label}-${created++}` }),
      }),
    },
    { label: 'tag history, first page', spec: get(`/registry/v1/tags/${tag}/history`) },
    { label: 'tag history, deep page', spec: get(`/registry/v1/tags/${tag}/history?start=${deepStart}`) },
  ];
  /** totalCount: a list right after a write (one client, in turn), so its total is computed, not cached; the lists timed. */
  const totals = async (): Promise<LoadResult> => {
    const latencies: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < WRITES; i++) {
      const w = cases[5].spec(i);
      const res = await fetch(`${url}${w.path}`, { method: 'POST', headers: w.headers, body: w.body as string });
      await res.arrayBuffer();
      const s = performance.now();
      const list = await fetch(`${url}${repos}&order_by=name`, { headers });
      await list.arrayBuffer();
      latencies.push(performance.now() - s);
      if (!res.ok || !list.ok) throw new Error(`totalCount sample: ${res.status} ${list.status}`);
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
    return {
      requests: WRITES,
      errors: 0,
      seconds: (performance.now() - t0) / 1000,
      rps: WRITES / ((performance.now() - t0) / 1000),
      p50: pct(50),
      p99: pct(99),
    };
  };
  return { cases, totals };
}

function measure(url: string, next: (i: number) => RequestSpec, pid?: number): Promise<LoadResult> {
  return measurePhase(url, next, pid, { connections: CONNECTIONS, warmupSeconds: WARMUP, seconds: SECONDS });
}

/** VACUUM ANALYZE (creates leave dead index entries and stale statistics behind), in a child process. */
async function settle(db: Db): Promise<void> {
  await run('psql', ['-q', db.url, '-c', 'vacuum analyze']);
}

/** Runs the explain step in a child process: a Berth process with the recorder, one request per case, EXPLAIN ANALYZE of what each ran. */
async function explain(db: Db, paths: Array<{ label: string; path: string; token: string }>): Promise<boolean> {
  const file = join(db.dataDir, 'paths.json');
  writeFileSync(file, JSON.stringify({ db, paths }));
  const child = spawn(process.execPath, [process.argv[1], '--explain', file], { stdio: 'inherit' });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  return code === 0;
}

async function explainStep(file: string): Promise<void> {
  const { db, paths } = JSON.parse(readFileSync(file, 'utf8')) as { db: Db; paths: Array<{ label: string; path: string; token: string }> };
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const big = new Set(
    (await client.query<{ relname: string }>(`select relname from pg_class where relkind = 'r' and reltuples > 100000`)).rows.map((r) => r.relname),
  );
  const log = join(db.dataDir, 'sql.log');
  rmSync(log, { force: true });
  const env = { ...process.env, BERTH_BENCH_SQL_LOG: log };
  const berth = spawnPinned(process.execPath, ['--import', join(HERE, 'sql-recorder.js'), ...serveArgs(db)], env);
  const url = (await waitFor(berth, /berth is serving at (http\S+)/))[1];
  const seqScans: string[] = [];
  try {
    for (const p of paths) {
      const from = existsSync(log) ? readFileSync(log, 'utf8').length : 0;
      const res = await fetch(`${url}${p.path}`, { headers: { authorization: `Bearer ${p.token}` } });
      await res.arrayBuffer();
      const ran = readFileSync(log, 'utf8').slice(from).split('\n').filter(Boolean);
      console.log(`\n== ${db.label}: ${p.label} (${res.status}), ${ran.length} statements`);
      for (const line of ran) {
        const { text, values: params } = JSON.parse(line) as { text: string; values: unknown[] };
        if (!/\b(repos|tags|tag_history|groups)\b/.test(text)) continue; // authentication's and versions' reads: small tables
        const plan = await client.query(`explain (analyze, buffers off, costs off) ${text}`, params);
        const lines = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
        console.log(`-- ${text.replace(/\s+/g, ' ')}\n${lines.map((l: string) => `   ${l}`).join('\n')}`);
        for (const l of lines) {
          const m = /Seq Scan on (\w+)/.exec(l);
          if (m && big.has(m[1])) seqScans.push(`${p.label}: Seq Scan on ${m[1]}`);
        }
      }
    }
  } finally {
    await stopProcess(berth);
    await client.end();
  }
  if (seqScans.length > 0) {
    console.log(`\nsequential scans on big tables:\n  ${seqScans.join('\n  ')}`);
    process.exitCode = 1;
  }
}

async function main() {
  const admin = values.database;
  if (!admin?.startsWith('postgres')) throw new Error('--database postgres://… (an admin connection) is required');
  pinLoadToCore1();
  const sizes = [Number(values.repos), Number(values['small-repos'])];
  const dbs: Db[] = [];
  for (const [i, repos] of sizes.entries()) {
    const name = `berth_scale_${repos}`;
    dbs.push({ label: i === 0 ? 'large' : 'small', repos, url: dbUrl(admin, name), dataDir: join(tmpdir(), name), port: await freePort() });
  }
  const load0 = loadavg()[0];
  const orgs: string[] = [];
  for (const db of dbs) orgs.push(await prepare(admin, db));

  const servers = [];
  for (const [i, db] of dbs.entries()) {
    const berth = await startBerth(db);
    const token = (
      await new Promise<string>((resolve) => {
        let out = '';
        const p = spawn(process.execPath, [CLI, 'auth', 'token', '--credentials', join(db.dataDir, 'admin-credentials.json'), '--api', berth.url]);
        p.stdout.on('data', (c: Buffer) => (out += c.toString()));
        p.once('exit', () => resolve(out));
      })
    ).trim();
    servers.push({ db, berth, token, ...(await casesFor(db, orgs[i], berth.url, token)) });
  }
  const [large, small] = servers;
  const bare = await startNode([join(HERE, 'scale-bare-server.js'), large.db.url], /bare at (http\S+)/);
  const bareUrl = bare.match[1];
  console.log(
    `\n${large.db.repos} repos against ${small.db.repos}, PostgreSQL, ${CONNECTIONS} connections, median of ${RUNS} runs of ${SECONDS} s after ${WARMUP} s warm-up; load average ${load0.toFixed(1)} at start\n`,
  );

  const failed: string[] = [];
  const rows: string[] = [];
  for (const [k, c] of large.cases.entries()) {
    const runs = { large: [] as LoadResult[], small: [] as LoadResult[], bare: [] as LoadResult[] };
    for (let r = 0; r < RUNS; r++) {
      // Large, small and bare alternate, which first turning with the run: load from elsewhere falls on all.
      const order = r % 2 === 0 ? ['large', 'small', 'bare'] : ['bare', 'small', 'large'];
      for (const which of order) {
        if (which === 'large') runs.large.push(await measure(large.berth.url, c.spec, large.berth.child.pid));
        if (which === 'small') runs.small.push(await measure(small.berth.url, small.cases[k].spec, small.berth.child.pid));
        if (which === 'bare' && c.bare) runs.bare.push(await measure(bareUrl, c.bare, bare.child.pid));
      }
      if (c.label === 'create repo') for (const db of dbs) await settle(db);
    }
    const L = medianResult(runs.large);
    const S = medianResult(runs.small);
    console.log(formatResult(`large ${c.label}`, L));
    console.log(formatResult(`small ${c.label}`, S));
    const ratio = L.p99 / S.p99;
    let line = `| ${c.label} | ${L.rps.toFixed(0)} req/s, p50 ${L.p50.toFixed(2)}, p99 ${L.p99.toFixed(2)} ms | ${S.rps.toFixed(0)} req/s, p50 ${S.p50.toFixed(2)}, p99 ${S.p99.toFixed(2)} ms | ${ratio.toFixed(2)} |`;
    if (ratio > 1.5) failed.push(`${c.label}: p99 at size ${ratio.toFixed(2)} × small's`);
    if (c.bare) {
      const B = medianResult(runs.bare);
      const share = median(runs.large.map((x, i) => x.rps / runs.bare[i].rps));
      console.log(formatResult(`bare  ${c.label}`, B));
      // By server CPU per request as well, which other load on the machine moves far less than req/s.
      const cpuShare = runs.large.every((x, i) => x.cpuUs && runs.bare[i].cpuUs) ? median(runs.large.map((x, i) => runs.bare[i].cpuUs! / x.cpuUs!)) : NaN;
      console.log(`  at size ${(share * 100).toFixed(0)} % of the bare route's req/s (floor 50 %), ${(cpuShare * 100).toFixed(0)} % by CPU per request`);
      line += ` ${B.rps.toFixed(0)} req/s; ${(share * 100).toFixed(0)} % of req/s, ${(cpuShare * 100).toFixed(0)} % by CPU |`;
      if (share < 0.5) failed.push(`${c.label}: ${(share * 100).toFixed(0)} % of the bare route`);
    } else line += ' |';
    rows.push(line);
  }
  await stopProcess(bare.child);
  await Promise.all(dbs.map(settle));
  // totalCount: alternating, as above.
  const totalRuns = { large: [] as LoadResult[], small: [] as LoadResult[] };
  for (let r = 0; r < RUNS; r++) {
    if (r % 2 === 0) totalRuns.large.push(await large.totals());
    totalRuns.small.push(await small.totals());
    if (r % 2 === 1) totalRuns.large.push(await large.totals());
  }
  const TL = medianResult(totalRuns.large);
  const TS = medianResult(totalRuns.small);
  console.log(formatResult('large totalCount (list after a write)', TL));
  console.log(formatResult('small totalCount (list after a write)', TS));
  const tRatio = TL.p99 / TS.p99;
  rows.push(
    `| totalCount (list after a write) | p50 ${TL.p50.toFixed(2)}, p99 ${TL.p99.toFixed(2)} ms | p50 ${TS.p50.toFixed(2)}, p99 ${TS.p99.toFixed(2)} ms | ${tRatio.toFixed(2)} | |`,
  );
  if (tRatio > 1.5) failed.push(`totalCount: p99 at size ${tRatio.toFixed(2)} × small's`);
  for (const s of servers) await stopProcess(s.berth.child);

  // Query plans: what one request of each list and history case ran.
  for (const s of servers) {
    const paths = s.cases.filter((c) => c.list || c.label.startsWith('tag history')).map((c) => ({ label: c.label, path: c.spec(0).path, token: s.token }));
    const ok = await explain(s.db, paths);
    if (!ok && s === large) failed.push('a sequential scan on a big table at size (above)');
  }

  console.log(`\nload average at the end ${loadavg()[0].toFixed(1)} (start ${load0.toFixed(1)})`);
  console.log("\n| measure | at size | small | p99 size / small | bare route at size, Berth's share |\n|---|---|---|---|---|");
  console.log(rows.join('\n'));
  if (!values.keep) {
    for (const db of dbs) {
      await psql(admin, `drop database if exists ${new URL(db.url).pathname.slice(1)} with (force)`);
      rmSync(db.dataDir, { recursive: true, force: true });
    }
  }
  if (failed.length > 0) {
    console.log(`\nbelow the aims:\n  ${failed.join('\n  ')}`);
    process.exitCode = 1;
  }
}

if (values.explain) await explainStep(values.explain);
else await main();
