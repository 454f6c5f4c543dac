// What matching reads of the advisories (src/vulnerabilities/affected/):
// each advisory's affected versions as range rows keyed by (ecosystem,
// package), the record's own version data they were derived from, and the
// log of (ecosystem, package) keys whose rows changed, which the scan side
// reads to re-match only the inventories holding those packages.
import type { Generated } from 'kysely';

/** One row per advisory that came with version data (OSV ranges and versions): AdvisoryAffected as JSON. */
export interface AdvisoryAffectedTable {
  advisory_uid: string;
  data: string;
}

export interface AdvisoryRangesTable {
  advisory_uid: string;
  /** Order within the advisory (the primary key's second part). */
  position: number;
  /** apk:wolfi, deb:debian:12, npm, pypi, maven, go, crates.io (affected/ecosystem-keys.ts). */
  ecosystem: string;
  /** The package under that key: origin or binary apk name, Debian source name, PEP 503 name, groupId:artifactId, module path. */
  package: string;
  /** VersionScheme the bounds compare under. */
  scheme: string;
  /** affected | not-affected | wont-fix. */
  status: string;
  /** Inclusive lower bound; '' is open. */
  introduced: string;
  /** Exclusive upper bound, the fix; '' is none. */
  fixed: string;
  /** Inclusive upper bound; '' is none. */
  last_affected: string;
}

/** Append-only: an id the scan worker keeps as its cursor, and the key that changed. */
export interface AdvisoryChangesTable {
  id: Generated<number>;
  ecosystem: string;
  package: string;
  change_time: string;
}

declare module '../store/database.js' {
  interface Database {
    advisory_affected: AdvisoryAffectedTable;
    advisory_ranges: AdvisoryRangesTable;
    advisory_changes: AdvisoryChangesTable;
  }
}
