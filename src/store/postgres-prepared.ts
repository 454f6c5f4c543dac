// Named (server-side prepared) statements on PostgreSQL. An unnamed statement
// is parsed and planned by the server on every execution; a named one once per
// connection, then only bound and executed: more queries per second and less
// client CPU per query (docs/performance.md).
//
// Bounded, because each name lives on every pooled connection for its life:
// only statements of reasonable length get one, and at most MAX_NAMES texts
// (the fixed shapes the server runs; a text of varying shape, such as a
// multi-row insert sized by its batch, stops getting names once the budget
// is spent, and runs unnamed as before). Names are handed out only once
// migrations have run: a statement prepared before a migration changed its
// table could fail with "cached plan must not change result type". Another
// instance can still change a table under a running one (a rolling upgrade):
// that error makes the store forget every name (new ones are prepared afresh)
// and drop the connection; a read runs again at once (postgres-pool.ts), a
// transaction through transact()'s retry (transaction-conflict.ts).
const MAX_NAMES = 512;
const MAX_TEXT = 4096;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** A prepared statement whose result's row type changed since it was prepared (SQLSTATE 0A000). */
export function isStalePreparedStatement(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type');
}

export class PreparedStatementNames {
  private readonly names = new Map<string, string>();
  private enabled = false;
  private generation = 0;

  /** Start naming statements (after migrations). */
  enable(): void {
    this.enabled = true;
  }

  /** Forgets every name: statements are prepared again, under new names, on every connection. */
  forget(): void {
    this.names.clear();
    this.generation++;
  }

  /** The name to prepare `sql` under, or undefined to run it unnamed. */
  nameOf(sql: string): string | undefined {
    if (!this.enabled) return undefined;
    const known = this.names.get(sql);
    if (known !== undefined) return known;
    if (this.names.size >= MAX_NAMES || sql.length > MAX_TEXT || !PREPARABLE.test(sql)) return undefined;
    const name = `berth_${this.generation}_${this.names.size}`;
    this.names.set(sql, name);
    return name;
  }
}
