// pg.Pool as Kysely sees it, made to survive the server ending connections
// (pg_terminate_backend, a restart, idle_session_timeout).
//
// - pg emits 'error' on the pool for idle clients and on a checked-out client
//   when its connection ends: unheard, either kills the process. Both are
//   logged here; pg-pool drops a broken client on release.
// - A statement that fails because its connection is gone is retried once on
//   a new connection only when that cannot apply a write twice: a SELECT
//   outside a transaction, or the BEGIN of a transaction (nothing ran yet).
//   Anything else (mid-transaction, an autocommit write) surfaces as it is
//   and the guard answers UNAVAILABLE.
// - A ROLLBACK on a dead connection succeeds trivially: the server already
//   discarded the transaction, and the caller's own error is the one to keep.
import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { submit } from './pg-statement.js';
import { isStalePreparedStatement, type PreparedStatementNames } from './postgres-prepared.js';

export type ConnectionErrorLog = (err: Error) => void;

type Kind = 'begin' | 'commit' | 'rollback' | 'read' | 'other';

function kindOf(sql: string): Kind {
  const head = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
  if (head === 'begin' || head === 'start') return 'begin';
  if (head === 'commit') return 'commit';
  if (head === 'rollback') return 'rollback';
  return head === 'select' ? 'read' : 'other';
}

export function resilientPool(pool: pg.Pool, log: ConnectionErrorLog, prepared: PreparedStatementNames): PostgresPool {
  // Attached for the client's life, so an error while it is checked out
  // (between the statements of a transaction) is heard as well as an idle one.
  pool.on('connect', (client) => client.on('error', log));
  pool.on('error', () => undefined); // an idle client's error, already logged by the listener above

  const connect = async (): Promise<pg.PoolClient> => {
    try {
      return await pool.connect();
    } catch (err) {
      // Once: a restarted server may accept the next attempt. Not after a
      // timeout: the pool is exhausted or the server unreachable, and the wait is spent.
      if (!isDatabaseUnavailable(err) || /timeout/i.test((err as Error).message)) throw err;
      return pool.connect();
    }
  };

  return {
    connect: async () => new ResilientClient(await connect(), connect, prepared) as unknown as PostgresPoolClient,
    end: () => pool.end(),
  };
}

// Kysely calls query(sql, parameters) only: its cursor overload (streaming)
// is not used by Berth, hence the cast where the client is handed out.
class ResilientClient {
  private inTransaction = false;
  private broken = false;

  constructor(
    private client: pg.PoolClient | undefined,
    private readonly reconnect: () => Promise<pg.PoolClient>,
    private readonly prepared: PreparedStatementNames,
  ) {}

  async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const kind = kindOf(sql);
    try {
      return await this.run<R>(kind, sql, parameters);
    } catch (err) {
      const stale = isStalePreparedStatement(err);
      if (!stale && !isDatabaseUnavailable(err)) throw err;
      this.broken = true;
      if (kind === 'rollback') {
        this.inTransaction = false;
        return { command: 'ROLLBACK' as never, rowCount: 0, rows: [] };
      }
      if (this.inTransaction || (kind !== 'read' && kind !== 'begin')) {
        this.inTransaction = false;
        throw err;
      }
      this.client?.release(true);
      this.client = undefined; // released: if reconnecting fails, release() has nothing left to do
      this.client = await this.reconnect();
      this.broken = false;
      return this.run<R>(kind, sql, parameters);
    }
  }

  private async run<R>(kind: Kind, sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    try {
      if (!this.client) throw new Error('Client was closed and is not queryable');
      const name = this.prepared.nameOf(sql);
      const values = [...parameters];
      const result = (await submit(this.client, sql, values, name)) as PostgresQueryResult<R>;
      if (kind === 'begin') this.inTransaction = true;
      else if (kind === 'commit' || kind === 'rollback') this.inTransaction = false;
      return result;
    } catch (err) {
      if (isDatabaseUnavailable(err)) this.broken = true;
      if (isStalePreparedStatement(err)) {
        this.prepared.forget();
        this.broken = true; // its statements go with it
      }
      throw err;
    }
  }

  release(): void {
    this.client?.release(this.broken ? true : undefined);
    this.client = undefined;
  }
}
