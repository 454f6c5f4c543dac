// Matches an inventory against the stored advisories: looks up the range
// rows of exactly the inventory's (ecosystem, package) keys (advisory-lookup.ts),
// keeps those of the advisories the scope may see, compares versions by the
// ecosystem's rules (src/versions), drops what a not-affected row (a false
// positive) of the same vulnerability says, merges what several feeds say of
// one vulnerability into one match per package, and adds severity, CVSS and
// description from the vulnerability metadata. A scope narrows it to the
// advisories an organization may see (its own groups and the public feed's):
// another organization's advisories are dropped before anything looks at
// them, not even to suppress.
import { isSelfOrBelow } from '../../core/uidp.js';
import { compareVersions, isValidVersion, isVersionScheme, type VersionScheme } from '../../versions/compare-versions.js';
import type { Executor, Tx } from '../../store/transact.js';
import type { Inventory } from '../inventory/inventory.js';
import { AdvisoryLookup, type RangeRow } from './advisory-lookup.js';
import { type Candidate, mergeCandidates } from './merge-candidates.js';
import { lookupKeys } from './package-keys.js';
import { severityOf } from './severity.js';
import type { VulnMatch } from './vuln-match.js';

/** No package name is longer; a longer one (from a hostile SBOM) is not looked up. */
const MAX_NAME = 512;

interface Holder {
  index: number;
  version: string;
}

interface Bounds {
  introduced: string;
  fixed: string;
  last_affected: string;
}

function contains(scheme: VersionScheme, v: string, r: Bounds): boolean {
  if (r.introduced !== '' && compareVersions(scheme, v, r.introduced) < 0) return false;
  if (r.fixed !== '' && compareVersions(scheme, v, r.fixed) >= 0) return false;
  if (r.last_affected !== '' && compareVersions(scheme, v, r.last_affected) > 0) return false;
  return true;
}

function boundsValid(scheme: VersionScheme, r: Bounds): boolean {
  return [r.introduced, r.fixed, r.last_affected].every((b) => b === '' || isValidVersion(scheme, b));
}

/** Which advisories a match may read, by the group they were imported or created in. */
export interface MatchScope {
  /** Groups whose advisories, and their subgroups', apply: the image's organization. */
  within: readonly string[];
  /**
   * The public feed's group (src/vulnerabilities/feed/feed-group.ts): the advisories imported
   * into it exactly, as the feed serves them (not its subgroups', nor those made through the API).
   */
  feedGroup?: string;
}

export interface MatchOptions {
  /** Without it every stored advisory applies (an operator's tool, tests). */
  scope?: MatchScope;
  /** Only these packages (indexes into inventory.packages); every package without it. */
  packages?: ReadonlySet<number>;
  /** A lookup shared by several matches (a re-match of many images); a fresh one without it. */
  lookup?: AdvisoryLookup;
}

/** Whether an advisory of group `parentUid`, from `source`, is in the scope. */
export function inScope(scope: MatchScope | undefined, parentUid: string, source: string): boolean {
  if (scope === undefined) return true;
  if (scope.within.some((g) => isSelfOrBelow(parentUid, g))) return true;
  return scope.feedGroup !== undefined && parentUid === scope.feedGroup && source !== 'api';
}

export async function matchInventory(db: Executor | Tx, inventory: Inventory, opts: MatchOptions = {}): Promise<VulnMatch[]> {
  const scope = opts.scope;
  const lookup = opts.lookup ?? new AdvisoryLookup(db);
  // ecosystem → package → the inventory packages holding it.
  const wanted = new Map<string, Map<string, Holder[]>>();
  inventory.packages.forEach((pkg, index) => {
    if (opts.packages && !opts.packages.has(index)) return;
    for (const k of lookupKeys(inventory.os, pkg)) {
      if (!isValidVersion(k.scheme, k.version)) continue; // a version Berth cannot order matches nothing
      if (k.package === '' || k.package.length > MAX_NAME || k.package.includes('\u0000')) continue;
      let names = wanted.get(k.ecosystem);
      if (!names) {
        names = new Map();
        wanted.set(k.ecosystem, names);
      }
      const holders = names.get(k.package) ?? [];
      if (!holders.some((h) => h.index === index)) holders.push({ index, version: k.version });
      names.set(k.package, holders);
    }
  });
  await lookup.load(new Map([...wanted].map(([ecosystem, names]) => [ecosystem, names.keys()])));

  const candidates: Candidate[] = [];
  const suppressed = new Set<string>();
  for (const [ecosystem, names] of wanted) {
    for (const [name, holders] of names) {
      for (const r of lookup.rows(ecosystem, name)) {
        if (!inScope(scope, r.parent_uid, r.source)) continue;
        collect(r, ecosystem, holders, candidates, suppressed);
      }
    }
  }
  const kept = candidates.filter((c) => !c.ids.some((id) => suppressed.has(`${c.packageIndex}\u0000${id}`)));
  const groups = mergeCandidates(kept);

  const metadata = await lookup.metadataOf(groups.flatMap((g) => [g.vulnerabilityId, ...g.aliases]));

  return groups.map((g): VulnMatch => {
    const found = [g.vulnerabilityId, ...g.aliases].map((id) => metadata.get(id)).filter((m) => m !== undefined);
    const scored = found.map((m) => severityOf(m.severities)).find((s) => s.cvss.length > 0) ?? { severity: 'UNKNOWN' as const, cvss: [] };
    const text = found.find((m) => m.summary !== '' || m.details !== '');
    const refs = found.find((m) => m.refs !== '[]');
    return {
      packageIndex: g.winner.packageIndex,
      package: inventory.packages[g.winner.packageIndex],
      advisoryUid: g.winner.advisoryUid,
      advisoryId: g.winner.advisoryId,
      vulnerabilityId: g.vulnerabilityId,
      aliases: g.aliases,
      source: g.winner.source,
      ecosystem: g.winner.ecosystem,
      fix: { state: g.winner.state, versions: g.winner.fixed ? [g.winner.fixed] : [] },
      severity: scored.severity,
      cvss: scored.cvss,
      description: text ? text.summary || text.details : '',
      urls: refs ? urlsOf(refs.refs) : [],
    };
  });
}

function collect(r: RangeRow, ecosystem: string, holders: readonly Holder[], candidates: Candidate[], suppressed: Set<string>): void {
  if (!isVersionScheme(r.scheme)) return;
  const scheme = r.scheme;
  const ids = [r.advisory_id, ...(JSON.parse(r.aliases) as string[])];
  for (const h of holders) {
    if (r.status === 'not-affected') {
      for (const id of ids) suppressed.add(`${h.index}\u0000${id}`);
      continue;
    }
    if (!boundsValid(scheme, r) || !contains(scheme, h.version, r)) continue;
    candidates.push({
      packageIndex: h.index,
      advisoryUid: r.advisory_uid,
      advisoryId: r.advisory_id,
      ids,
      source: r.source,
      ecosystem,
      state: r.status === 'wont-fix' ? 'wont-fix' : r.fixed !== '' ? 'fixed' : r.last_affected !== '' ? 'unknown' : 'not-fixed',
      fixed: r.fixed,
    });
  }
}

function urlsOf(refsJson: string): string[] {
  try {
    const refs = JSON.parse(refsJson) as { url?: unknown }[];
    return refs.map((r) => r.url).filter((u): u is string => typeof u === 'string');
  } catch {
    return [];
  }
}
