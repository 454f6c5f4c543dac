// bench:api -- --observability: only the cost of metrics and the access log.
// Two servers on the same seeded database, started anew each round (which one
// starts first alternating every two rounds: the first to start takes the
// background workers' leases on the shared database, and an A/A check found
// it the slower one), one with both on (the defaults,
// logging at info into a pipe this process drains, as a log collector would)
// and one with --metrics off --access-log off, each idle while the other is
// measured; GET one repo and list 50 on both back to back, which first
// alternating from round to round, then the medians of the per-round ratios,
// by req/s and by server CPU per request (which other load on the machine
// moves less). Then, each round, the two side by side: half the connections
// to each at once, so both spend the same seconds on the same machine, and
// their CPU per request is compared over one window (the machine's speed
// drifted by tens of % between back-to-back windows; docs/performance.md).
// Aim: with both on, ≥ 95 % of the figures with both off.
import type { ChildProcess } from 'node:child_process';
import { median, medianResult } from './bench-process.js';
import { formatResult, type LoadResult, type RequestSpec } from './load.js';

export interface Server {
  url: string;
  child: ChildProcess;
}

type Measure = (url: string, next: (i: number) => RequestSpec, server?: ChildProcess) => Promise<LoadResult>;
/** Loads both servers at once over the same window: their results in the order given. */
export type MeasureTogether = (a: Server, b: Server, next: (i: number) => RequestSpec) => Promise<[LoadResult, LoadResult]>;

interface Pair {
  on: LoadResult;
  off: LoadResult;
}

async function measurePair(on: Server, off: Server, spec: () => RequestSpec, offFirst: boolean, measure: Measure): Promise<Pair> {
  if (offFirst) {
    const o = await measure(off.url, spec, off.child);
    return { on: await measure(on.url, spec, on.child), off: o };
  }
  const o = await measure(on.url, spec, on.child);
  return { on: o, off: await measure(off.url, spec, off.child) };
}

/** Starts the pair for a round (which of the two starts first is the starter's choice) and stops it. */
export type PairStarter = (round: number) => Promise<{ on: Server; off: Server; stop(): Promise<void> }>;

export async function benchObservability(
  startPair: PairStarter,
  specs: Record<'GET one repo' | 'list 50', () => RequestSpec>,
  rounds: number,
  measure: Measure,
  measureTogether: MeasureTogether,
) {
  const pairs: Record<string, Pair[]> = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  const together: Record<string, Pair[]> = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    const { on, off, stop } = await startPair(round);
    const line: string[] = [];
    for (const [name, spec] of Object.entries(specs)) {
      const p = await measurePair(on, off, spec, round % 2 === 1, measure);
      pairs[name].push(p);
      line.push(`${name} ${p.on.rps.toFixed(0)}/${p.off.rps.toFixed(0)} req/s, ${p.on.cpuUs?.toFixed(1)}/${p.off.cpuUs?.toFixed(1)} µs CPU`);
      const [tOn, tOff] = await measureTogether(on, off, spec);
      together[name].push({ on: tOn, off: tOff });
      line.push(`side by side ${tOn.cpuUs?.toFixed(1)}/${tOff.cpuUs?.toFixed(1)} µs CPU`);
    }
    await stop();
    console.log(`round ${round + 1} (measured ${round % 2 === 1 ? 'off first' : 'on first'}), on/off: ${line.join('; ')}`);
  }
  console.log(`\nmedians of ${rounds} rounds`);
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  for (const [name, ps] of Object.entries(pairs)) {
    const byRate = median(ps.map((p) => p.on.rps / p.off.rps));
    const byCpu = ps.every((p) => p.on.cpuUs && p.off.cpuUs) ? median(ps.map((p) => p.off.cpuUs! / p.on.cpuUs!)) : Number.NaN;
    console.log(formatResult(`${name}, metrics and access log on`, medianResult(ps.map((p) => p.on))));
    console.log(formatResult(`${name}, both off`, medianResult(ps.map((p) => p.off))));
    console.log(
      `  on as a share of off: ${pct(byRate)} by req/s (${byRate >= 0.95 ? 'met' : 'NOT met'}), ${pct(byCpu)} by server CPU per request (${byCpu >= 0.95 ? 'met' : 'NOT met'}); aim ≥ 95 %`,
    );
    const side = together[name];
    const sideCpu = median(side.map((p) => p.off.cpuUs! / p.on.cpuUs!));
    console.log(
      `  side by side: ${median(side.map((p) => p.on.cpuUs!)).toFixed(1)} µs on, ${median(side.map((p) => p.off.cpuUs!)).toFixed(1)} µs off (medians); on as a share of off by CPU per request ${pct(sideCpu)} (${sideCpu >= 0.95 ? 'met' : 'NOT met'})`,
    );
  }
}
