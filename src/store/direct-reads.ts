// Reads that can skip Kysely's executor: on SQLite a SELECT outside a
// transaction runs on the reader connection, synchronously, so the executor's
// connection hand-off (several awaits per query) buys nothing, and cost a
// large share of a GET's CPU (docs/performance.md). PostgreSQL has none (its
// reads need a pooled connection).
import type { Kysely } from 'kysely';

export interface DirectReads {
  /** Runs a SELECT on the reader connection. */
  read<R>(sql: string, parameters: readonly unknown[]): R[];
  /** SQLite's PRAGMA data_version on the reader: changes whenever another connection (this process's writer or another process) commits. */
  dataVersion(): number;
}

function isDirect(adapter: object): adapter is { directReads(): DirectReads | undefined } {
  return typeof (adapter as { directReads?: unknown }).directReads === 'function';
}

/**
 * The adapter of `db` when a read may skip its executor: `db` is the database
 * itself (not a transaction, whose reads run on its own connection and must
 * see its own writes) and has no plugins (whose result transforms the
 * executor applies). Direct reads here and pooled reads (pooled-reads.ts) ask it.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export function executorFreeAdapter(db: Kysely<any>): object | undefined {
  if (db.isTransaction) return undefined;
  const executor = db.getExecutor();
  return executor.plugins.length > 0 ? undefined : executor.adapter;
}

/** The direct reads of `db` (SQLite's reader connection) when a read may skip its executor. */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export function directReadsOf(db: Kysely<any>): DirectReads | undefined {
  const adapter = executorFreeAdapter(db);
  return adapter && isDirect(adapter) ? adapter.directReads() : undefined;
}
