// One finding: an installed package of an inventory that an advisory says is
// affected, with what the report shows of the vulnerability. matchInventory
// (match-inventory.ts) produces them; the scan worker stores them.
import type { InstalledPackage } from '../inventory/inventory.js';

export type FixState = 'fixed' | 'not-fixed' | 'wont-fix' | 'unknown';

export const SEVERITIES = ['UNKNOWN', 'NEGLIGIBLE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface CvssScore {
  /** "2.0", "3.0", "3.1", "4.0". */
  version: string;
  /** The base score the vector gives (ae-cvss-calculator). */
  score: number;
  vector: string;
}

export interface VulnMatch {
  /** Index into inventory.packages. */
  packageIndex: number;
  package: InstalledPackage;
  /** The advisory that decided the match (the richest when several feeds said the same). */
  advisoryUid: string;
  /** Its CGA id (or the id minted for an OSV, secdb or OpenVEX record). */
  advisoryId: string;
  /** What to display: the first CVE among the advisory's ids and aliases, else its first alias, else the advisory id. */
  vulnerabilityId: string;
  /** Every id the matched advisories gave for this vulnerability, sorted, without vulnerabilityId. */
  aliases: string[];
  /** The feed: advisories.source (yaml, osv, secdb, openvex, api). */
  source: string;
  /** The ecosystem key the package was looked up under (apk:wolfi, deb:debian:12, npm…). */
  ecosystem: string;
  fix: { state: FixState; versions: string[] };
  severity: Severity;
  cvss: CvssScore[];
  description: string;
  urls: string[];
}
