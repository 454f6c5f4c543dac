// What every benchmark does with the processes it measures: servers pinned to
// core 0 and the load generator (this process) to core 1 when there are two
// cores and taskset; start a server and wait for its banner; stop it; read
// its CPU time from /proc; medians of runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import type { LoadResult } from './load.js';

/** Cores of the machine, read before this process is pinned to one. */
export const CORES = availableParallelism();
/** Whether servers run on core 0 and the load on core 1. */
export const PIN = CORES >= 2 && spawnSync('taskset', ['-V']).status === 0;

/** Moves this process (the load generator) to core 1 when pinning. */
export function pinLoadToCore1(): void {
  if (PIN) spawnSync('taskset', ['-apc', '1', String(process.pid)], { stdio: 'ignore' });
}

// Servers still running when this process exits — a benchmark that threw
// halfway — are killed with it, not left serving on core 0 (they would skew
// every later run on the machine).
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Spawns `cmd` on core 0 when pinning, output piped (stdout into the file
 * descriptor `stdout` when given); killed when this process exits, if still running.
 */
export function spawnPinned(cmd: string, args: string[], env?: NodeJS.ProcessEnv, stdout: number | 'pipe' = 'pipe'): ChildProcess {
  const [c, a] = PIN ? ['taskset', ['-c', '0', cmd, ...args]] : [cmd, args];
  const child = spawn(c, a, { stdio: ['ignore', stdout, 'pipe'], env });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Resolves with the first match of `ready` in the child's output (kept up to 64 KB); rejects if it exits or times out first. */
export function waitFor(child: ChildProcess, ready: RegExp, timeoutMs = 120_000): Promise<RegExpExecArray> {
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const onData = (c: Buffer) => {
      if (out.length < 64_000) out += c.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}

/** A Node.js program of this project on core 0, once `ready` appears in its output (stderr only when stdout goes to a file). */
export async function startNode(args: string[], ready: RegExp, stdout: number | 'pipe' = 'pipe'): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawnPinned(process.execPath, args, undefined, stdout);
  return { child, match: await waitFor(child, ready) };
}

/** SIGTERM, then waits for the exit (at once when it is gone already). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

// A process's CPU time (user + system, all threads) from /proc, in µs; undefined where there is none.
const TICK_US = 1e6 / (Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);
export function cpuTimeUs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime
  } catch {
    return undefined;
  }
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Per figure, the median over runs (errors summed). */
export function medianResult(rs: LoadResult[]): LoadResult {
  return {
    requests: median(rs.map((r) => r.requests)),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    seconds: median(rs.map((r) => r.seconds)),
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    cpuUs: rs.every((r) => r.cpuUs !== undefined) ? median(rs.map((r) => r.cpuUs!)) : undefined,
  };
}
