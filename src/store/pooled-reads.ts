// Reads that skip Kysely's executor on PostgreSQL: a SELECT outside a
// transaction checks a connection out of the pool, runs and gives it back,
// which is what the executor does through its connection provider, driver and
// logging wrapper, with several promise hand-offs more per statement (a tenth
// of a list's own work beside the bare route; docs/performance.md). The pool
// is the resilient one (postgres-pool.ts): a lost connection is retried the
// same way. Timed as a select, as every statement is (store-metrics.ts).
import { PostgresAdapter, PostgresDialect, type DialectAdapter, type Kysely, type PostgresPool } from 'kysely';
import { measuredRead } from './store-metrics.js';

export interface PooledReads {
  /** Runs a SELECT on a pooled connection. */
  read<R>(sql: string, parameters: readonly unknown[]): Promise<R[]>;
}

class PooledPostgresAdapter extends PostgresAdapter {
  constructor(private readonly reads: PooledReads) {
    super();
  }

  pooledReads(): PooledReads {
    return this.reads;
  }
}

/** PostgreSQL's dialect over `pool`, whose adapter also offers pooled reads. */
export class PooledPostgresDialect extends PostgresDialect {
  private readonly reads: PooledReads;

  constructor(pool: PostgresPool) {
    super({ pool });
    const read = async (sql: string, parameters: readonly unknown[]): Promise<unknown[]> => {
      const client = await pool.connect();
      try {
        return (await client.query(sql, parameters)).rows;
      } finally {
        client.release();
      }
    };
    this.reads = { read: measuredRead(read) as PooledReads['read'] };
  }

  override createAdapter(): DialectAdapter {
    return new PooledPostgresAdapter(this.reads);
  }
}

/**
 * The pooled reads of `db` when it is the database itself (not a transaction,
 * whose reads must run on its connection) and has no plugins (whose result
 * transforms the executor applies).
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export function pooledReadsOf(db: Kysely<any>): PooledReads | undefined {
  if (db.isTransaction) return undefined;
  const executor = db.getExecutor();
  if (executor.plugins.length > 0) return undefined;
  const adapter = executor.adapter;
  return adapter instanceof PooledPostgresAdapter ? adapter.pooledReads() : undefined;
}
