// Vulnerability metadata, served by the advisory feed: imported from OSV
// records (summary, details, references, severities by vulnerability id).
// The feed's documents are read from the advisories (advisory-tables.ts).

export interface VulnerabilityMetadataTable {
  /** CVE-…, GHSA-…, GO-…: the OSV record's id. */
  id: string;
  summary: string;
  details: string;
  /** JSON array of {type, url} in proto3 JSON (berth.advisory.v2.Reference). */
  refs: string;
  /** JSON array of {type, score} in proto3 JSON (berth.advisory.v2.Severity). */
  severities: string;
  /** The OSV record's modified time. */
  modified: string;
  update_time: string;
}

declare module '../store/database.js' {
  interface Database {
    vulnerability_metadata: VulnerabilityMetadataTable;
  }
}
