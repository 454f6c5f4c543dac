// Reads that skip Kysely's executor on PostgreSQL: a SELECT outside a
// transaction checks a connection out of the pool, runs and gives it back,
// which is what the executor does through its connection provider, driver and
// logging wrapper, with several promise hand-offs more per statement (about
// 10 µs of a list's 400–460 at size, 1–3 % side by side; docs/performance.md).
// The pool is the resilient one (postgres-pool.ts): a lost connection is
// retried the same way. Timed as a select, as every statement is (store-metrics.ts).
import { PostgresAdapter, PostgresDialect, type DialectAdapter, type Kysely, type PostgresPool } from 'kysely';
import { executorFreeAdapter } from './direct-reads.js';
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

/** The pooled reads of `db` when a read may skip its executor (direct-reads.ts says when). */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export function pooledReadsOf(db: Kysely<any>): PooledReads | undefined {
  const adapter = executorFreeAdapter(db);
  return adapter instanceof PooledPostgresAdapter ? adapter.pooledReads() : undefined;
}
