// Events benchmark: what delivering events costs writes, and how soon an
// event reaches its sink.
//  - Mutations per second: PATCH a group's description over REST at C
//    connections (one group per connection, so no two wait for one row):
//    with no subscription (the in-run baseline: each event is written as
//    fanned out already, none delivered), then 1 and 10 subscriptions on the
//    organization, whose sinks are a local receiver in this process. Delivered events per second are counted while the writes
//    run, and the backlog left when they stop is timed until it drains.
//  - Commit-to-delivery latency: events committed at a steady RATE per second
//    for L seconds, one subscription; the time from each commit to its
//    arrival at the receiver, p50 and p99.
// The events come from the PATCH itself (UpdateGroup writes its event in its
// transaction). Latency is measured from the bench's own commits (which a
// server learns of by polling, as it learns of another instance's) and from
// the PATCH request (which wakes the server's worker at once; an upper bound,
// as it includes the request).
//  - The floor of a delivery: a bare loop on the server's core that only signs
//    each event's Bearer JWT and POSTs it to the same receiver
//    (bench/events-floor-sender.ts); CPU per delivery, set against the share
//    of a mutation's CPU that the 80 % aim leaves for its deliveries.
// Servers pinned to core 0, load and receiver on core 1 (bench/api.ts's
// layout); medians of R runs; server CPU per mutation from /proc.
// Usage: npm run bench:events [-- --seconds S --connections C --runs R --rate N --latency-seconds L --database postgres://… (a fresh database)]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { emitEvent } from '../src/events/outbox.js';
import { openStore, type Store } from '../src/store/store.js';
import { transact } from '../src/store/transact.js';
import { cpuTimeUs, freePort, median, PIN, pinLoadToCore1, spawnPinned, stopProcess, waitFor } from './bench-process.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
    rate: { type: 'string', default: '200' },
    'latency-seconds': { type: 'string', default: '10' },
    database: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP_SECONDS = 1;
const CONNECTIONS = Number(values.connections);
const RUNS = Number(values.runs);
const RATE = Number(values.rate);
const LATENCY_SECONDS = Number(values['latency-seconds']);
const FLOOR = join(import.meta.dirname, 'events-floor-sender.js');
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const SUBSCRIPTION_COUNTS = [0, 1, 10] as const;
/** The baseline's key among the figures: mutations with no subscription to deliver to. */
const BASELINE = 0;
const DRAIN_LIMIT_MS = 120_000;

pinLoadToCore1();

// ---- the receiver (this process) ----

class Receiver {
  deliveries = 0;
  /** ce-id → when it first arrived (performance.now()). */
  readonly firstSeen = new Map<string, number>();
  /** body.description → when it first arrived. */
  readonly byDescription = new Map<string, number>();
  private server!: http.Server;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        this.deliveries++;
        const id = String(req.headers['ce-id'] ?? '');
        if (!this.firstSeen.has(id)) this.firstSeen.set(id, at);
        try {
          const description = (JSON.parse(Buffer.concat(chunks).toString()) as { body?: { description?: string } }).body?.description;
          if (description && !this.byDescription.has(description)) this.byDescription.set(description, at);
        } catch {
          // not ours to judge: the bench only counts
        }
        res.writeHead(204).end();
      });
    });
    this.server.keepAliveTimeout = 10_000;
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

// ---- the server and its database ----

interface Server {
  child: ReturnType<typeof spawnPinned>;
  url: string;
}

async function pendingDeliveries(store: Store): Promise<number> {
  const r = await store.db
    .selectFrom('event_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 1)
    .executeTakeFirstOrThrow();
  const unfanned = await store.db
    .selectFrom('event_outbox')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('fanned_out', '=', 0)
    .where('audience', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(r.n) + Number(unfanned.n);
}

async function outboxCount(store: Store): Promise<number> {
  const r = await store.db
    .selectFrom('event_outbox')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Replaces the organization's subscriptions by `n` to the receiver (bench setup, as the Subscriptions API would write them). */
async function setSubscriptions(store: Store, org: string, receiver: Receiver, n: number): Promise<void> {
  const now = new Date().toISOString();
  await transact(store, async (tx) => {
    await tx.deleteFrom('event_subscriptions').execute();
    for (let i = 0; i < n; i++) {
      await tx
        .insertInto('event_subscriptions')
        .values({
          uid: `${org}/${randomBytes(8).toString('hex')}`,
          parent_uid: org,
          sink: receiver.url(`s${i}`),
          signing_secret: '',
          create_time: now,
          update_time: now,
        })
        .execute();
    }
  });
}

async function drained(store: Store): Promise<number> {
  const t0 = performance.now();
  while ((await pendingDeliveries(store)) > 0) {
    if (performance.now() - t0 > DRAIN_LIMIT_MS) throw new Error('deliveries did not drain in time');
    await sleep(50);
  }
  return performance.now() - t0;
}

// ---- mutations ----

interface Mutations {
  perSecond: number;
  p50: number;
  p99: number;
  cpuUs?: number;
  deliveredPerSecond: number;
  drainMs: number;
}

function patch(url: string, agent: http.Agent, token: string, group: string, description: string): Promise<number> {
  const body = JSON.stringify({ description });
  return new Promise((resolve, reject) => {
    const u = new URL(`/iam/v2/groups/${group}`, url);
    const req = http.request(
      {
        agent,
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Setup {
  server: Server;
  store: Store;
  token: string;
  org: string;
  groups: string[];
  receiver: Receiver;
}

let seq = 0;

/** One mutation: the PATCH (which writes its event). */
async function mutate(s: Setup, agent: http.Agent, worker: number): Promise<void> {
  const status = await patch(s.server.url, agent, s.token, s.groups[worker % s.groups.length], `d-${seq++}`);
  if (status !== 200) throw new Error(`PATCH answered ${status}`);
}

async function closedLoop(s: Setup, seconds: number): Promise<{ count: number; latencies: number[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const deadline = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, w) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await mutate(s, agent, w);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  agent.destroy();
  return { count: latencies.length, latencies };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function mutations(s: Setup, subscriptions: number): Promise<Mutations> {
  await setSubscriptions(s.store, s.org, s.receiver, subscriptions);
  await closedLoop(s, WARMUP_SECONDS);
  await drained(s.store);
  const delivered0 = s.receiver.deliveries;
  const cpu0 = cpuTimeUs(s.server.child.pid);
  const t0 = performance.now();
  const r = await closedLoop(s, SECONDS);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu1 = cpuTimeUs(s.server.child.pid);
  const deliveredInWindow = s.receiver.deliveries - delivered0;
  const drainMs = await drained(s.store);
  const sorted = r.latencies.sort((a, b) => a - b);
  return {
    perSecond: r.count / elapsed,
    p50: pct(sorted, 50),
    p99: pct(sorted, 99),
    cpuUs: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / r.count : undefined,
    deliveredPerSecond: deliveredInWindow / elapsed,
    drainMs,
  };
}

// ---- latency ----

interface Latency {
  p50: number;
  p99: number;
  events: number;
}

/** Commits RATE events per second for LATENCY_SECONDS, each timed from `start` to its arrival. */
async function openLoop(fire: (i: number) => Promise<{ key: string; start: number }>, arrived: (key: string) => number | undefined): Promise<Latency> {
  const n = Math.round(RATE * LATENCY_SECONDS);
  const sent: Promise<{ key: string; start: number }>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    sent.push(fire(i));
  }
  const fired = await Promise.all(sent);
  const until = performance.now() + 30_000;
  while (fired.some((f) => arrived(f.key) === undefined) && performance.now() < until) await sleep(20);
  const lat = fired.map((f) => (arrived(f.key) ?? Number.POSITIVE_INFINITY) - f.start).sort((a, b) => a - b);
  return { p50: pct(lat, 50), p99: pct(lat, 99), events: n };
}

async function latencyFromCommits(s: Setup): Promise<Latency> {
  await setSubscriptions(s.store, s.org, s.receiver, 1);
  await drained(s.store);
  return openLoop(
    async (i) => {
      const key = await transact(s.store, (tx) =>
        emitEvent(tx, {
          type: 'api.iam.group.updated.v1',
          audience: 'customer',
          group: s.org,
          subject: s.groups[i % s.groups.length],
          body: { uid: s.groups[i % s.groups.length], description: `c-${i}` },
          bodyType: 'berth.iam.v2.Group',
          audit: false,
        }),
      );
      return { key, start: performance.now() }; // transact resolved: committed
    },
    (key) => s.receiver.firstSeen.get(key),
  );
}

async function latencyFromRequests(s: Setup): Promise<Latency> {
  await setSubscriptions(s.store, s.org, s.receiver, 1);
  await drained(s.store);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const run = `r${seq++}`;
  const r = await openLoop(
    async (i) => {
      const start = performance.now();
      const key = `${run}-${i}`;
      await patch(s.server.url, agent, s.token, s.groups[i % s.groups.length], key);
      return { key, start };
    },
    (key) => s.receiver.byDescription.get(key),
  );
  agent.destroy();
  return r;
}

// ---- main ----

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-events-'));
  const port = await freePort();
  const serveArgs = [
    CLI,
    'serve',
    '--listen',
    `127.0.0.1:${port}`,
    '--registry-listen',
    'off',
    '--data',
    dataDir,
    '--log-level',
    'warn',
    '--allow-insecure-sinks',
  ];
  if (values.database) serveArgs.push('--database', values.database);
  const startServer = async (): Promise<Server> => {
    const child = spawnPinned(process.execPath, serveArgs, process.env);
    const match = await waitFor(child, /berth is serving at (http\S+)/);
    return { child, url: match[1] };
  };
  const receiver = new Receiver();
  await receiver.start();
  let server = await startServer();
  const creds = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { organization: { uid: string } };
  const org = creds.organization.uid;
  const token = spawnSync(process.execPath, [CLI, 'auth', 'token', '--credentials', join(dataDir, 'admin-credentials.json'), '--api', server.url], {
    encoding: 'utf8',
  }).stdout.trim();
  const store = await openStore({ dataDir, databaseUrl: values.database, poolSize: 4 });
  const groups: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const r = await fetch(`${server.url}/iam/v2/groups/${org}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-${i}` }),
    });
    if (r.status !== 200) throw new Error(`creating a group: ${r.status} ${await r.text()}`);
    groups.push(((await r.json()) as { uid: string }).uid);
  }
  const before = await outboxCount(store);
  await patch(server.url, new http.Agent(), token, groups[0], 'probe');
  if ((await outboxCount(store)) <= before) throw new Error('the PATCH wrote no event: UpdateGroup must emit api.iam.group.updated.v1');

  console.log(
    `\nevents: ${values.database ? 'PostgreSQL' : 'SQLite'}, ${CONNECTIONS} connections, ${SECONDS} s per measurement (after ${WARMUP_SECONDS} s warm-up), ${RUNS} runs (medians), ${PIN ? 'server on core 0, load and receiver on core 1' : 'not pinned'}`,
  );
  console.log('events come from the PATCH itself (the RPC writes its event in its transaction)');
  console.log('baseline: the same mutations with no subscription (each event is written, fanned out already, and delivered to no one)\n');

  const figures: Record<number, Mutations[]> = { 0: [], 1: [], 10: [] };
  const commits: Latency[] = [];
  const requests: Latency[] = [];
  for (let run = 0; run < RUNS; run++) {
    await stopProcess(server.child);
    server = await startServer();
    const setup: Setup = { server, store, token, org, groups, receiver };
    for (const n of SUBSCRIPTION_COUNTS) figures[n].push(await mutations(setup, n));
    commits.push(await latencyFromCommits(setup));
    requests.push(await latencyFromRequests(setup));
  }
  await stopProcess(server.child);
  // The floor of a delivery on the server's core (events-floor-sender.ts), against the same receiver.
  const floor = spawnPinned(process.execPath, [FLOOR, receiver.url('floor'), String(SECONDS), String(CONNECTIONS)]);
  const floorFigures = JSON.parse((await waitFor(floor, /^\{.*\}$/m))[0]) as { perSecond: number; cpuUs: number };
  await stopProcess(floor);
  await store.close();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });

  const m = (n: number, f: (x: Mutations) => number) => median(figures[n].map(f));
  const base = m(BASELINE, (x) => x.perSecond);
  for (const n of SUBSCRIPTION_COUNTS) {
    const label = `mutations, ${n} subscription${n === 1 ? '' : 's'}`.padEnd(28);
    const cpu = figures[n].every((x) => x.cpuUs !== undefined) ? `   cpu ${m(n, (x) => x.cpuUs!).toFixed(0)} µs/mutation` : '';
    const ratio = n === BASELINE ? '' : `   ${((100 * m(n, (x) => x.perSecond)) / base).toFixed(0)} % of baseline`;
    const delivered =
      n <= 0
        ? ''
        : `   delivered ${m(n, (x) => x.deliveredPerSecond).toFixed(0)} deliveries/s, backlog drained ${(m(n, (x) => x.drainMs) / 1000).toFixed(2)} s after`;
    console.log(
      `${label} ${m(n, (x) => x.perSecond)
        .toFixed(0)
        .padStart(6)}/s   p50 ${m(n, (x) => x.p50).toFixed(2)} ms   p99 ${m(n, (x) => x.p99).toFixed(2)} ms${cpu}${ratio}${delivered}`,
    );
  }
  const show = (name: string, ls: Latency[]) =>
    console.log(
      `${name.padEnd(60)} p50 ${median(ls.map((l) => l.p50)).toFixed(1)} ms   p99 ${median(ls.map((l) => l.p99)).toFixed(1)} ms   (${ls[0].events} events per run)`,
    );
  console.log(`\ncommit-to-delivery at ${RATE} events/s for ${LATENCY_SECONDS} s, 1 subscription:`);
  show('  committed by another process (the worker polls)', commits);
  show('  from the PATCH request (this process wakes its worker)', requests);
  const baseCpu = figures[BASELINE].every((x) => x.cpuUs !== undefined) ? m(BASELINE, (x) => x.cpuUs!) : Number.NaN;
  console.log(
    `\nfloor of a delivery (a bare loop on the server's core that only signs and POSTs each event): ${floorFigures.perSecond.toFixed(0)} deliveries/s, cpu ${floorFigures.cpuUs.toFixed(0)} µs/delivery`,
  );
  console.log(
    `  80 % of the baseline leaves ${(baseCpu * 0.25).toFixed(0)} µs of the server's core per mutation (a quarter of its ${baseCpu.toFixed(0)} µs) for its deliveries: 1 subscription needs at least ${floorFigures.cpuUs.toFixed(0)} µs, 10 need ${(10 * floorFigures.cpuUs).toFixed(0)} µs`,
  );
  const worst = Math.min(...SUBSCRIPTION_COUNTS.filter((n) => n !== BASELINE).map((n) => (100 * m(n, (x) => x.perSecond)) / base));
  const p99 = Math.max(median(commits.map((l) => l.p99)), median(requests.map((l) => l.p99)));
  console.log(
    `\naims: writes delivered to subscriptions ≥ 80 % of the baseline (lowest here ${worst.toFixed(0)} %); commit-to-delivery p99 ≤ 250 ms at ${RATE} events/s (${p99.toFixed(1)} ms)`,
  );
}

await main();
