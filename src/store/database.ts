// The tables, as Kysely sees them. The store declares only its own; each
// domain adds its tables from its own folder by augmenting this interface
// (see src/iam/iam-tables.ts), so a new domain edits no shared list.
// Timestamps are RFC 3339 text with milliseconds; booleans are 0/1 integers,
// so one schema serves both databases.

export interface SettingsTable {
  key: string;
  value: string;
}

/** A version per table, bumped by triggers on every write (see versioned-table.ts). */
export interface TableVersionsTable {
  table_name: string;
  version: number | string;
}

export interface Database {
  table_versions: TableVersionsTable;
  settings: SettingsTable;
}

/** Columns every resource table has: a uid path and timestamps. */
export interface ResourceColumns {
  uid: string;
  create_time: string;
  update_time: string;
}
