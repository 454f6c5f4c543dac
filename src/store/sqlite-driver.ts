// Kysely over node:sqlite with two connections to one WAL file, so that no
// lock can freeze the server:
// - a reader (query_only) runs every SELECT outside a transaction. In WAL mode
//   readers never wait for a writer; its short busy timeout covers only the
//   rare moments another connection rebuilds the WAL index.
// - a writer runs transactions and every other statement, one at a time
//   (WriteGate), with no busy timeout: when another process holds the write
//   lock it retries asynchronously until WRITE_WAIT_MS, then UNAVAILABLE.
// Transactions take the write lock when they begin (BEGIN IMMEDIATE): a
// deferred one that later writes fails at once with "database is locked"
// when another process (several instances may share the file) wrote in between.
// Measured with another process holding BEGIN IMMEDIATE: lists answer at once
// and a write answers 503 after WRITE_WAIT_MS, where before both waited the
// 10 s busy timeout with the event loop blocked and the write answered 500.
import {
  type CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { openSqliteConnection, type Param, type SqliteConnection } from './sqlite-database.js';
import type { DirectReads } from './direct-reads.js';
import { acquireFileLock } from './file-lock.js';
import { whileBusy, WriteGate } from './sqlite-write-gate.js';

/** How long a write waits for the lock (in this process and from others) before UNAVAILABLE. */
export const WRITE_WAIT_MS = 5_000;
const READ_BUSY_TIMEOUT_MS = 100;

function execute<R>(conn: SqliteConnection, query: CompiledQuery): QueryResult<R> {
  const { stmt, reader, all } = conn.prepare(query.sql);
  const params = query.parameters as Param[];
  if (reader) return { rows: all(params) as R[] };
  const { changes, lastInsertRowid } = stmt.run(...params);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

class Session implements DatabaseConnection {
  inTransaction = false;
  private holdsWriter = false;
  private deadline = 0;

  constructor(private readonly driver: SqliteDriver) {}

  async lockWriter(): Promise<void> {
    this.deadline = Date.now() + WRITE_WAIT_MS;
    await this.driver.gate.acquire(this.deadline);
    this.holdsWriter = true;
  }

  unlockWriter(): void {
    if (!this.holdsWriter) return;
    this.holdsWriter = false;
    this.inTransaction = false;
    this.driver.gate.release();
  }

  /** Runs a statement on the writer that must get the write lock in time. */
  onWriter<T>(fn: (writer: SqliteConnection) => T): Promise<T> {
    return whileBusy(() => fn(this.driver.writer), this.deadline);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return execute<R>(this.driver.writer, query);
    if (SelectQueryNode.is(query.query)) return execute<R>(this.driver.reader, query);
    await this.lockWriter();
    try {
      return await this.onWriter((w) => execute<R>(w, query)); // autocommit: a busy failure changed nothing
    } finally {
      this.unlockWriter();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(query);
  }
}

export class SqliteDriver implements Driver {
  readonly gate = new WriteGate();
  writer!: SqliteConnection;
  reader!: SqliteConnection;
  /** Set once the reader is open. */
  direct?: DirectReads;

  constructor(private readonly file: string) {}

  async init(): Promise<void> {
    this.writer = openSqliteConnection(this.file, { busyTimeoutMs: 0 });
    const deadline = Date.now() + WRITE_WAIT_MS;
    // Instances starting together on a new file race for these.
    await whileBusy(() => this.writer.db.exec('PRAGMA journal_mode = WAL'), deadline);
    this.writer.db.exec('PRAGMA synchronous = NORMAL');
    this.reader = openSqliteConnection(this.file, { busyTimeoutMs: READ_BUSY_TIMEOUT_MS, queryOnly: true });
    const reader = this.reader;
    const version = reader.db.prepare('PRAGMA data_version');
    version.setReturnArrays(true);
    this.direct = {
      read: <R>(sql: string, parameters: readonly unknown[]) => reader.prepare(sql).all(parameters as Param[]) as R[],
      dataVersion: () => (version.get() as unknown as [number])[0],
    };
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    await s.lockWriter();
    try {
      await s.onWriter((w) => w.prepare('BEGIN IMMEDIATE').stmt.run()); // prepared once: parsing it was a visible share of a short write
    } catch (err) {
      s.unlockWriter();
      throw err;
    }
    s.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    await s.onWriter((w) => w.prepare('COMMIT').stmt.run()); // a busy COMMIT leaves the transaction open: retrying is safe
    s.unlockWriter();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    try {
      if (this.writer.db.isTransaction) this.writer.db.exec('ROLLBACK');
    } finally {
      s.unlockWriter();
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    if (s.inTransaction && this.writer.db.isTransaction) this.writer.db.exec('ROLLBACK'); // never leave the writer mid-transaction
    s.unlockWriter();
  }

  async destroy(): Promise<void> {
    this.direct = undefined;
    this.reader?.close();
    this.writer?.close();
  }
}

/**
 * Kysely's migration lock, which SQLite's adapter leaves empty: a lock file,
 * since processes may share the database file. It also offers the driver's
 * reader for direct reads (direct-reads.ts), once the driver has opened it.
 */
class SqliteFileAdapter extends SqliteAdapter {
  private release?: () => void;

  constructor(
    private readonly lockFile: string,
    private readonly driver: () => SqliteDriver | undefined,
  ) {
    super();
  }

  directReads(): DirectReads | undefined {
    return this.driver()?.direct;
  }

  override async acquireMigrationLock(): Promise<void> {
    this.release = await acquireFileLock(this.lockFile);
  }

  override async releaseMigrationLock(): Promise<void> {
    this.release?.();
    this.release = undefined;
  }
}

export class SqliteFileDialect implements Dialect {
  private driver?: SqliteDriver;

  constructor(private readonly file: string) {}
  createDriver(): Driver {
    this.driver = new SqliteDriver(this.file);
    return this.driver;
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteFileAdapter(`${this.file}.migrate-lock`, () => this.driver);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}
