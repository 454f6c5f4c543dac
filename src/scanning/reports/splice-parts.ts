// A report's parts after a splice (report-splice.ts): the kept packages'
// parts as stored (only their digests and match ids are read, not their
// text) and the changed packages' new ones, in package order — the same
// parts, so the same text and digest, as the whole report written anew.
import type { BerthReportPart } from '../scanner-reports/berth-report-parts.js';
import type { ReportSeverity } from '../scanner-reports/scanner-report.js';

/** A stored part without its text: what a splice reads of the packages it keeps. */
export type PartHead = Omit<BerthReportPart, 'text'> & { pairs?: [string, ReportSeverity][] };

export function pairsOf(p: PartHead): [string, ReportSeverity][] {
  p.pairs ??= JSON.parse(p.matches) as [string, ReportSeverity][];
  return p.pairs;
}

export const matchCount = (parts: readonly PartHead[]) => parts.reduce((n, p) => n + pairsOf(p).length, 0);

/** The report's parts after the packages in `replaced` get `added` (both in package order). */
export function spliceParts<T extends PartHead>(parts: readonly T[], replaced: ReadonlySet<number>, added: readonly T[]): T[] {
  const out: T[] = [];
  let a = 0;
  for (const p of parts) {
    if (replaced.has(p.packageIndex)) continue;
    while (a < added.length && added[a].packageIndex < p.packageIndex) out.push(added[a++]);
    out.push(p);
  }
  while (a < added.length) out.push(added[a++]);
  return out;
}

/** Whether the packages in `replaced` hold `added` already (same packages with matches, same digests): a splice that changes nothing. */
export function sameParts(parts: readonly PartHead[], replaced: ReadonlySet<number>, added: readonly PartHead[]): boolean {
  let a = 0;
  for (const p of parts) {
    if (!replaced.has(p.packageIndex)) continue;
    const q = added[a++];
    if (q === undefined || q.packageIndex !== p.packageIndex || q.digest !== p.digest) return false;
  }
  return a === added.length;
}
