// Berth's own report of an image, as stored in vuln_reports (scanner BERTH):
// the matches (matching/match-inventory.ts) in the form ListVulnReports reads
// for every scanner (ReportVulnerability), each with what GetVulnReport shows
// beyond it under `berth`. Bounded, so one row stays bounded however many
// advisories match: at most MAX_STORED_MATCHES matches, lists and text cut.
// Each match is written with its package's index, its id and its severity
// first, in matching's order (by package, then id), and stored by package
// (scanner-reports/berth-report-parts.ts), which is how a splice after an
// advisory change (report-splice.ts) replaces some packages' matches.
import type { FixState as MatchFixState, VulnMatch } from '../matching/vuln-match.js';
import type { FixState, ReportSeverity, ReportVulnerability } from '../scanner-reports/scanner-report.js';
import { type BerthReportPart, partDigest, reportDigest } from '../scanner-reports/berth-report-parts.js';
import { package2 } from '../sbom-v1/package-message.js';

/** Raised when matching's rules change (the scanner version of Berth's reports). */
export const MATCHER_VERSION = '2';

/** Matches one report keeps (an image with 10,000 packages has a few thousand). */
export const MAX_STORED_MATCHES = 20_000;
/** Entries of one list of a match kept (aliases, URLs, locations, CVSS scores). */
const MAX_LIST = 64;
/** Characters of a description kept. */
const MAX_TEXT = 4_096;

export interface BerthVulnerability extends ReportVulnerability {
  /** The package's index in the stored inventory. */
  packageIndex: number;
  berth: {
    /** The advisory that decided the match and the feed it came from. */
    advisoryId: string;
    advisoryUid: string;
    source: string;
    /** The key the package was looked up under (apk:alpine, deb:debian:12, npm…). */
    ecosystem: string;
    /** The installed package as GetSbom shows it (Package2's id, license, description). */
    pkg: { id: string; license: string; description: string };
  };
}

/** A report's matches, parsed and as stored (by package). */
export interface BerthReportBody {
  vulnerabilities: BerthVulnerability[];
  /** The packages' matches as stored: their texts make the report's JSON text. */
  parts: BerthReportPart[];
  /** The digest of the parts' digests: an unchanged report has the same. */
  digest: string;
  /** Matches left out past MAX_STORED_MATCHES. */
  omitted: number;
}

const FIX_STATES: Readonly<Record<MatchFixState, FixState>> = { fixed: 'FIXED', 'not-fixed': 'NOT_FIXED', 'wont-fix': 'WONT_FIX', unknown: 'UNKNOWN' };

type Described = Pick<ReturnType<typeof package2>, 'id' | 'license' | 'description'>;

/** The matches as a report holds them; a package with several matches is described once. */
function vulnerabilitiesOf(matches: readonly VulnMatch[]): BerthVulnerability[] {
  const described = new Map<number, Described>();
  return matches.map((m) => {
    let d = described.get(m.packageIndex);
    if (!d) {
      d = package2(m.package);
      described.set(m.packageIndex, d);
    }
    return vulnerabilityOf(m, d);
  });
}

function vulnerabilityOf(m: VulnMatch, described: Described): BerthVulnerability {
  const p = m.package;
  // packageIndex, id and severity first: a match's text begins with what identifies it.
  return {
    packageIndex: m.packageIndex,
    id: m.vulnerabilityId,
    severity: m.severity as ReportSeverity,
    aliases: m.aliases.slice(0, MAX_LIST),
    purls: p.purl ? [p.purl] : [],
    description: m.description.slice(0, MAX_TEXT),
    details: '',
    cvss: m.cvss.slice(0, MAX_LIST).map((c) => ({ score: c.score.toFixed(1), version: c.version })),
    fix: { versions: m.fix.versions.slice(0, MAX_LIST), state: FIX_STATES[m.fix.state] },
    relatedUrls: m.urls.slice(0, MAX_LIST),
    locations: p.locations.slice(0, MAX_LIST),
    package: { name: p.name, version: p.version, purl: p.purl, type: p.type },
    berth: {
      advisoryId: m.advisoryId,
      advisoryUid: m.advisoryUid,
      source: m.source,
      ecosystem: m.ecosystem,
      pkg: { id: described.id, license: described.license, description: described.description },
    },
  };
}

export function berthReportBody(matches: readonly VulnMatch[]): BerthReportBody {
  const vulnerabilities = vulnerabilitiesOf(matches.slice(0, MAX_STORED_MATCHES)).sort(matchOrder);
  const parts = reportParts(vulnerabilities);
  return { vulnerabilities, parts, digest: reportDigest(parts), omitted: Math.max(0, matches.length - MAX_STORED_MATCHES) };
}

/** Matches in report order → one part per package with matches, in package order. */
export function reportParts(vulns: readonly BerthVulnerability[]): BerthReportPart[] {
  const parts: BerthReportPart[] = [];
  for (let i = 0; i < vulns.length; ) {
    const index = vulns[i].packageIndex;
    const texts: string[] = [];
    const pairs: [string, ReportSeverity][] = [];
    for (; i < vulns.length && vulns[i].packageIndex === index; i++) {
      texts.push(JSON.stringify(vulns[i]));
      pairs.push([vulns[i].id, vulns[i].severity]);
    }
    const text = texts.join(',');
    parts.push({ packageIndex: index, text, digest: partDigest(text), matches: JSON.stringify(pairs) });
  }
  return parts;
}

/** The matches of some packages, in report order, as a report holds them (report-splice.ts puts them in a stored report). */
export function berthVulnerabilities(matches: readonly VulnMatch[]): BerthVulnerability[] {
  return vulnerabilitiesOf(matches).sort(matchOrder);
}

/** Matching's order, the order of a stored report: by package, then vulnerability id. */
function matchOrder(a: Pick<BerthVulnerability, 'packageIndex' | 'id'>, b: Pick<BerthVulnerability, 'packageIndex' | 'id'>): number {
  return a.packageIndex - b.packageIndex || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Counts by severity, every severity present (0 when none). */
export function severityCounts(vulns: readonly Pick<ReportVulnerability, 'severity'>[]): Record<ReportSeverity, number> {
  const counts: Record<ReportSeverity, number> = { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, NEGLIGIBLE: 0, UNKNOWN: 0 };
  for (const v of vulns) counts[v.severity] = (counts[v.severity] ?? 0) + 1;
  return counts;
}
