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
// Then the floor: the bare routes observed (bench/bare-server.ts --observe,
// documented and lean) side by side with them unobserved.
// Aim: with both on, ≥ 95 % of the figures with both off; where even the
// floor's added cost is more than 5 % of Berth's request, Berth's added cost
// ≤ the floor's / 0.9.
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

type Specs = Record<'GET one repo' | 'list 50', () => RequestSpec>;

/** The floor: the bare routes observed two ways and not at all (bench/bare-server.ts --observe), with their own requests. */
export interface Floor {
  start: () => Promise<{ documented: Server; lean: Server; off: Server; stop(): Promise<void> }>;
  specs: Specs;
}

export async function benchObservability(
  startPair: PairStarter,
  specs: Specs,
  rounds: number,
  measure: Measure,
  measureTogether: MeasureTogether,
  floor: Floor,
) {
  const pairs: Record<string, Pair[]> = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  const together: Record<string, Pair[]> = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  const documented: Record<string, Pair[]> = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  const lean: Record<string, Pair[]> = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
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
    const bare = await floor.start();
    for (const [name, spec] of Object.entries(floor.specs)) {
      for (const [way, into] of [
        ['documented', documented],
        ['lean', lean],
      ] as const) {
        const [fOn, fOff] = await measureTogether(bare[way], bare.off, spec);
        into[name].push({ on: fOn, off: fOff });
        line.push(`floor ${name} ${way}/off ${fOn.cpuUs?.toFixed(1)}/${fOff.cpuUs?.toFixed(1)} µs CPU`);
      }
    }
    await bare.stop();
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
    console.log(`  ${floorVerdict(side, documented[name], lean[name])}`);
  }
}

/**
 * Berth's added CPU per request against the floor's: the bare route observed
 * the documented way and the lean way, each side by side with the bare route
 * unobserved; the floor is the cheaper of the two. When even the floor's cost
 * is more than 5 % of Berth's request with both off, the 95 % aim is out of
 * reach on this machine with these libraries, and the aim becomes: Berth's
 * cost at most the floor's / 0.9 (≥ 90 % of the floor's efficiency).
 */
function floorVerdict(berth: Pair[], documented: Pair[], lean: Pair[]): string {
  const added = (ps: Pair[]) => median(ps.map((p) => p.on.cpuUs! - p.off.cpuUs!));
  const berthAdded = added(berth);
  const floorAdded = Math.min(added(documented), added(lean));
  const berthOff = median(berth.map((p) => p.off.cpuUs!));
  const reachable = berthOff / (berthOff + floorAdded);
  const head = `floor (bare route ${median(lean.map((p) => p.off.cpuUs!)).toFixed(1)} µs): documented +${added(documented).toFixed(2)} µs, lean +${added(lean).toFixed(2)} µs per request; Berth +${berthAdded.toFixed(2)} µs`;
  if (reachable >= 0.95) return `${head}; the floor's cost at Berth's request is ${(reachable * 100).toFixed(1)} %: the 95 % aim stands`;
  const met = berthAdded <= floorAdded / 0.9;
  return `${head}; the floor's cost alone at Berth's request is ${(reachable * 100).toFixed(1)} % < 95 %: aim Berth's cost ≤ floor's / 0.9 = ${(floorAdded / 0.9).toFixed(2)} µs (${met ? 'met' : 'NOT met'})`;
}
