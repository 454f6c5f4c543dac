// One match per (package, vulnerability): advisories of one package that
// share any id (a CGA advisory aliasing CVE-X, an OSV record aliasing CVE-X)
// are the same vulnerability, and the richest says what the report shows —
// a known fix over won't-fix over no fix over an unknown one, then the feed
// with the most detail (advisory YAML, OSV, secdb, OpenVEX, the API).
import type { FixState } from './vuln-match.js';

export interface Candidate {
  packageIndex: number;
  advisoryUid: string;
  advisoryId: string;
  /** advisoryId and the aliases. */
  ids: string[];
  source: string;
  ecosystem: string;
  state: FixState;
  /** The fix of the interval the version is in; '' when none. */
  fixed: string;
}

export interface MergedMatch {
  winner: Candidate;
  vulnerabilityId: string;
  /** Every other id of the group, sorted. */
  aliases: string[];
}

const STATE_RANK: Readonly<Record<FixState, number>> = { fixed: 3, 'wont-fix': 2, 'not-fixed': 1, unknown: 0 };
const SOURCE_RANK: Readonly<Record<string, number>> = { yaml: 4, osv: 3, secdb: 2, openvex: 1 };
const CVE = /^CVE-\d{4}-\d+$/;
const CGA = /^CGA-/;

function richer(a: Candidate, b: Candidate): boolean {
  if (STATE_RANK[a.state] !== STATE_RANK[b.state]) return STATE_RANK[a.state] > STATE_RANK[b.state];
  const sa = SOURCE_RANK[a.source] ?? 0;
  const sb = SOURCE_RANK[b.source] ?? 0;
  if (sa !== sb) return sa > sb;
  return a.advisoryUid < b.advisoryUid;
}

/** The id to show: the first CVE (in order), else the first id that is not a CGA id, else the CGA id. */
export function displayId(ids: readonly string[]): string {
  const sorted = [...ids].sort();
  return sorted.find((id) => CVE.test(id)) ?? sorted.find((id) => !CGA.test(id)) ?? sorted[0];
}

export function mergeCandidates(candidates: readonly Candidate[]): MergedMatch[] {
  const byPackage = new Map<number, Candidate[]>();
  for (const c of candidates) {
    const list = byPackage.get(c.packageIndex);
    if (list) list.push(c);
    else byPackage.set(c.packageIndex, [c]);
  }
  const out: MergedMatch[] = [];
  for (const [, list] of [...byPackage].sort(([a], [b]) => a - b)) {
    // Groups of candidates sharing an id: each id points at its group; a candidate touching two groups joins them.
    const groupOf = new Map<string, Set<Candidate>>();
    for (const c of list) {
      const joined = new Set<Candidate>([c]);
      for (const id of c.ids) {
        const g = groupOf.get(id);
        if (g) for (const x of g) joined.add(x);
      }
      for (const x of joined) for (const id of x.ids) groupOf.set(id, joined);
    }
    const groups = new Set(groupOf.values());
    const merged: MergedMatch[] = [];
    for (const g of groups) {
      let winner: Candidate | undefined;
      const ids = new Set<string>();
      for (const c of g) {
        if (!winner || richer(c, winner)) winner = c;
        for (const id of c.ids) ids.add(id);
      }
      const vulnerabilityId = displayId([...ids]);
      merged.push({ winner: winner!, vulnerabilityId, aliases: [...ids].filter((id) => id !== vulnerabilityId).sort() });
    }
    merged.sort((a, b) => (a.vulnerabilityId < b.vulnerabilityId ? -1 : a.vulnerabilityId > b.vulnerabilityId ? 1 : 0));
    out.push(...merged);
  }
  return out;
}
