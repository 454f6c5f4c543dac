// The database's share of the process metrics (src/core/metrics.ts): each
// statement's time and failures by kind, through Kysely's own log hook (and
// around SQLite's direct reads, which skip Kysely's executor), and the
// pool's usage read at each scrape.
import type { LogEvent } from 'kysely';
import { metrics } from '../core/metrics.js';

const OPERATIONS: Record<string, string> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
};

type Observe = (seconds: number) => void;

/** Kysely's `log` option when metrics are on (Kysely times statements only when it has one). */
export function queryLog(): ((event: LogEvent) => void) | undefined {
  const m = metrics();
  if (!m) return undefined;
  // One bound observer per (kind, outcome): a statement records without a label lookup.
  const observers = new Map<string, { ok: Observe; error: Observe }>();
  const observersOf = (operation: string) => {
    let o = observers.get(operation);
    if (!o) {
      o = { ok: m.dbDuration.bound({ operation, outcome: 'ok' }), error: m.dbDuration.bound({ operation, outcome: 'error' }) };
      observers.set(operation, o);
    }
    return o;
  };
  return (event) => {
    const operation = OPERATIONS[event.query.query.kind] ?? 'other';
    const o = observersOf(operation);
    if (event.level === 'error') {
      o.error(event.queryDurationMillis / 1000);
      m.dbErrors.inc({ operation });
    } else o.ok(event.queryDurationMillis / 1000);
  };
}

/** `read` (synchronous or not) timed as a select when metrics are on; `read` itself otherwise. */
export function measuredRead<F extends (sql: string, parameters: readonly unknown[]) => unknown[] | Promise<unknown[]>>(read: F): F {
  const m = metrics();
  if (!m) return read;
  const ok = m.dbDuration.bound({ operation: 'select', outcome: 'ok' });
  const error = m.dbDuration.bound({ operation: 'select', outcome: 'error' });
  const failed = (started: number, err: unknown): never => {
    error((performance.now() - started) / 1000);
    m.dbErrors.inc({ operation: 'select' });
    throw err;
  };
  return ((sql: string, parameters: readonly unknown[]) => {
    const started = performance.now();
    let rows: unknown[] | Promise<unknown[]>;
    try {
      rows = read(sql, parameters);
    } catch (err) {
      return failed(started, err);
    }
    // A synchronous read (SQLite's, on every GET) makes no closure.
    if (rows instanceof Promise) {
      return rows.then(
        (r) => {
          ok((performance.now() - started) / 1000);
          return r;
        },
        (err: unknown) => failed(started, err),
      );
    }
    ok((performance.now() - started) / 1000);
    return rows;
  }) as F;
}

export interface PoolUsage {
  /** Open connections and those idle (PostgreSQL); absent on SQLite (one writer, one reader). */
  total?: number;
  idle?: number;
  /** Waiting for a connection (PostgreSQL) or for the writer, the group-commit queue (SQLite). */
  waiting: number;
}

/** Publishes `usage` as gauges, read at each scrape, when metrics are on. */
export function publishPoolUsage(usage: () => PoolUsage): void {
  const m = metrics();
  if (!m) return;
  m.gauge('berth_db_pool_connections', 'PostgreSQL pool connections by state (total, idle)', ['state'], async () => {
    const u = usage();
    return u.total === undefined
      ? []
      : [
          { labels: { state: 'total' }, value: u.total },
          { labels: { state: 'idle' }, value: u.idle ?? 0 },
        ];
  });
  m.gauge('berth_db_waiting', 'Requests waiting for a pooled connection (PostgreSQL) or for the writer in the group-commit queue (SQLite)', [], async () => [
    { labels: {}, value: usage().waiting },
  ]);
}
