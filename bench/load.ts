// A small closed-loop load generator: N keep-alive connections each issue
// requests back to back, for a fixed time (runLoad) or until a fixed number
// of requests has been sent (runCount); reports req/s and latency percentiles.
//
// It polls rather than sleeps while waiting for responses (its event loop is
// kept turning, so epoll never blocks). A client asleep in epoll has to be
// woken by each response, and on a virtual machine that wake is an interrupt
// sent from the server's core: perf on the token exchange showed a large share
// of the server's CPU in the loopback write's sock_def_readable waking this
// process (docs/performance.md), and the caches the server came back to were cold. A
// client on another machine never costs the server that; how much it cost
// here depended on how long the route kept the client waiting, which skewed
// slow routes against fast ones and a route against a floor that happened to
// answer in bursts. Polling costs only the load core. `{ clientSleeps: true }`
// measures the old way (bench:sts prints both).
import http from 'node:http';
import { releaseBuffer } from '../src/core/release-buffer.js';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** CPU time the server process spent per request (µs), when measured: unlike req/s, it does not move with other load on the machine. */
  cpuUs?: number;
}

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The status that counts as success; by default any status below 400. */
  expect?: number;
}

function once(agent: http.Agent, base: URL, spec: RequestSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: base.hostname, port: base.port, method: spec.method, path: spec.path, headers: spec.headers }, (res) => {
      // Read and dropped, each buffer freed at once: left to V8, they piled up to its
      // external-memory limit and the full collections that followed paused this process,
      // timed as the server's latency (docs/performance.md).
      res.on('data', releaseBuffer);
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

export interface LoadOptions {
  /** Let the load generator sleep between responses (each response then wakes it: see above). */
  clientSleeps?: boolean;
}

/** Keeps the event loop turning (a pending immediate makes libuv poll without blocking) until the returned stop is called. */
function keepPolling(): () => void {
  let polling = true;
  const turn = () => {
    if (polling) setImmediate(turn);
  };
  turn();
  return () => {
    polling = false;
  };
}

/** Runs `connections` workers, each taking request specs while `more()` holds. */
async function drive(baseUrl: string, next: (i: number) => RequestSpec, connections: number, more: () => boolean, opts: LoadOptions): Promise<LoadResult> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const worker = async () => {
    while (more()) {
      const spec = next(counter++);
      const t0 = performance.now();
      try {
        const status = await once(agent, base, spec);
        if (spec.expect === undefined ? status >= 400 : status !== spec.expect) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const stopPolling = opts.clientSleeps ? () => undefined : keepPolling();
  const start = performance.now();
  await Promise.all(Array.from({ length: connections }, worker)).finally(stopPolling);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, seconds: elapsed, rps: latencies.length / elapsed, p50: pct(50), p99: pct(99) };
}

export function runLoad(baseUrl: string, next: (i: number) => RequestSpec, connections: number, seconds: number, opts: LoadOptions = {}): Promise<LoadResult> {
  const deadline = performance.now() + seconds * 1000;
  return drive(baseUrl, next, connections, () => performance.now() < deadline, opts);
}

/** Sends exactly `total` requests (`next` is called with 0 … total-1) over `connections` connections. */
export function runCount(baseUrl: string, next: (i: number) => RequestSpec, connections: number, total: number, opts: LoadOptions = {}): Promise<LoadResult> {
  let issued = 0;
  return drive(baseUrl, next, connections, () => issued++ < total, opts);
}

export function formatResult(name: string, r: LoadResult): string {
  const cpu = r.cpuUs === undefined ? '' : `   cpu ${r.cpuUs.toFixed(0).padStart(5)} µs/req`;
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms${cpu}   (${r.requests} requests, ${r.errors} errors)`;
}
