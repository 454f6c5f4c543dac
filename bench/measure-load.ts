// One measured phase of a bench: a warm-up, then the load with the server's
// CPU time per request (when its pid is known); any failed request fails the bench.
import { cpuTimeUs } from './bench-process.js';
import { runLoad, type LoadResult, type RequestSpec } from './load.js';

export interface PhaseOptions {
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export async function measurePhase(url: string, next: (i: number) => RequestSpec, pid: number | undefined, o: PhaseOptions): Promise<LoadResult> {
  await runLoad(url, next, o.connections, o.warmupSeconds);
  const before = cpuTimeUs(pid);
  const r = await runLoad(url, next, o.connections, o.seconds);
  const after = cpuTimeUs(pid);
  if (before !== undefined && after !== undefined) r.cpuUs = (after - before) / r.requests;
  if (r.errors > 0) throw new Error(`${url}${next(0).path}: ${r.errors} errors`);
  return r;
}
