// The advisories' tables. An advisory relates one vulnerability
// (its CGA id and aliases) to one artifact, architecture and component; it
// belongs to a group (imported ones to the group the import names) and goes with it. Its
// aliases are also kept one per row so the aliases filter is an index probe;
// its events are their own rows, the newest approved one's type copied onto
// the advisory for the latest_event_type filter.
import type { ResourceColumns } from '../store/database.js';

export interface AdvisoriesTable extends ResourceColumns {
  parent_uid: string;
  /** CGA-xxxx-xxxx-xxxx. */
  advisory_id: string;
  legacy_advisory_id: string | null;
  /** The origin package the artifact is built from: the feed document's id. */
  origin: string;
  /** The namespace of the origin package's repository (wolfi, chainguard, …); '' when unknown. */
  package_namespace: string;
  author: string;
  artifact_name: string;
  artifact_type: string;
  artifact_architecture: string;
  component_name: string;
  component_type: string;
  component_location: string;
  /** JSON array of the aliases, sorted: what a read returns. */
  aliases: string;
  /** Lower-cased artifact name, component name and aliases, one per line: what `query` searches. */
  search: string;
  /** EventTypeFilter number of the newest approved event; 0 when none is approved. */
  latest_event_type: number;
  /** Where the advisory came from: the import source (e.g. "yaml") or "api". */
  source: string;
  /** The import file that last wrote it (its path as given); '' for API writes. */
  source_file: string;
}

export interface AdvisoryAliasesTable {
  advisory_uid: string;
  alias: string;
}

export interface AdvisoryEventsTable {
  /** The advisory's uid + "/" + 16 hex; for imported events, of their content. */
  uid: string;
  advisory_uid: string;
  /** When it happened (RFC 3339 with milliseconds). */
  create_time: string;
  update_time: string;
  author: string;
  reviewer: string;
  /** ReviewState number. */
  review_state: number;
  /** EventTypeFilter number of the oneof case. */
  type: number;
  /** JSON: the v2 AdvisoryEvent's oneof in proto3 JSON, e.g. {"fixed":{"fixedVersion":"1.2.0-r2"}}. */
  data: string;
  findings: Uint8Array | null;
  issue: string | null;
  /** 16 hex of the event's content: the same event on two advisories (or files) has the same hash. */
  content_hash: string;
}

/** One row per imported file: unchanged files (same hash) are skipped. */
export interface AdvisoryImportFilesTable {
  /** The import source and the file's path as given, e.g. "yaml:/data/age.advisories.yaml". */
  file_key: string;
  content_hash: string;
  import_time: string;
}

declare module '../store/database.js' {
  interface Database {
    advisories: AdvisoriesTable;
    advisory_aliases: AdvisoryAliasesTable;
    advisory_events: AdvisoryEventsTable;
    advisory_import_files: AdvisoryImportFilesTable;
  }
}
