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
import { measuredRead } from './store-metrics.js';
import type { Logger } from 'pino';
import { acquireFileLock } from './file-lock.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, startCheckpointer, type Checkpointer } from './sqlite-checkpointer.js';
import { setImmediate } from 'node:timers/promises';
import { DatabaseUnavailable } from './database-unavailable.js';
import { whileBusy, WriteGate } from './sqlite-write-gate.js';

/** The most transactions one COMMIT serves, and the longest a group stays open to newcomers. */
const MAX_GROUP = 64;
const MAX_GROUP_MS = 20;
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
  /** Began inside a commit group another transaction opened (a savepoint of it). */
  joined = false;
  holdsWriter = false;
  private deadline = 0;

  constructor(private readonly driver: SqliteDriver) {}

  async lockWriter(joins = false): Promise<void> {
    this.deadline = Date.now() + WRITE_WAIT_MS;
    await this.driver.gate.acquire(this.deadline, joins);
    this.holdsWriter = true;
  }

  unlockWriter(): void {
    if (!this.holdsWriter) return;
    this.holdsWriter = false;
    this.inTransaction = false;
    this.joined = false;
    this.driver.gate.release();
  }

  /** Runs a statement on the writer that must get the write lock in time. */
  onWriter<T>(fn: (writer: SqliteConnection) => T): Promise<T> {
    return whileBusy(() => fn(this.driver.writer), this.deadline);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) {
      const writer = this.driver.writer;
      // SQLite rolls the whole transaction back itself on some failures (a
      // full disk, an I/O error): a statement run after that would autocommit
      // on its own, outside the transaction its caller believes it is in.
      if (!writer.db.isTransaction) throw this.driver.lostTransaction();
      try {
        return execute<R>(writer, query);
      } catch (err) {
        if (!writer.db.isTransaction) this.driver.transactionLost(err);
        throw err;
      }
    }
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

/** Transactions that finished inside the open SQLite transaction and wait for its COMMIT. */
interface CommitGroup {
  opened: number;
  waiting: Array<{ committed: () => void; failed: (err: unknown) => void }>;
}

export class SqliteDriver implements Driver {
  readonly gate = new WriteGate();
  writer!: SqliteConnection;
  reader!: SqliteConnection;
  /** Set once the reader is open. */
  direct?: DirectReads;
  private checkpointer?: Checkpointer;

  constructor(
    private readonly file: string,
    private readonly logger?: Logger,
  ) {}

  async init(): Promise<void> {
    this.writer = openSqliteConnection(this.file, { busyTimeoutMs: 0 });
    const deadline = Date.now() + WRITE_WAIT_MS;
    // Instances starting together on a new file race for these.
    await whileBusy(() => this.writer.db.exec('PRAGMA journal_mode = WAL'), deadline);
    this.writer.db.exec('PRAGMA synchronous = NORMAL');
    this.writer.db.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    this.checkpointer = startCheckpointer(this.file, {
      holdWrites: async (whileHeld) => {
        try {
          await this.gate.acquire(Date.now() + WRITE_WAIT_MS);
        } catch {
          return; // writes are backed up: the backstop checkpoint will do
        }
        try {
          await whileHeld();
        } finally {
          this.gate.release();
        }
      },
      onError: (err) => this.logger?.warn({ err: { message: err.message } }, 'the WAL checkpoint thread stopped; commits checkpoint the WAL themselves'),
    });
    this.reader = openSqliteConnection(this.file, { busyTimeoutMs: READ_BUSY_TIMEOUT_MS, queryOnly: true });
    const reader = this.reader;
    const version = reader.db.prepare('PRAGMA data_version');
    version.setReturnArrays(true);
    this.direct = {
      read: measuredRead((sql: string, parameters: readonly unknown[]) => reader.prepare(sql).all(parameters as Param[])) as DirectReads['read'],
      dataVersion: () => (version.get() as unknown as [number])[0],
    };
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this);
  }

  // Group commit. A transaction that finishes does not COMMIT at once: it
  // lets the event loop turn once (requests that arrived meanwhile reach the
  // gate), and if the next writer waiting is a transaction, hands it the gate
  // with the SQLite transaction still open; that one runs inside a SAVEPOINT
  // and decides the same way. The last of the group commits for all, and only
  // then does any of them return: nothing is acknowledged before its COMMIT.
  // One COMMIT (and one write of each page the group shares: the table
  // version row, the last page of each table and append-ordered index) serves
  // many transactions. A member that fails rolls back to its savepoint alone.
  // What members see: a later one reads an earlier one's rows before they are
  // committed; if the COMMIT then fails (a full disk), all of them fail.
  private group?: CommitGroup;
  /** Why SQLite rolled the open transaction back itself, so every member of the group fails with that cause (a full disk answers 503, not 500). */
  private lost?: unknown;

  transactionLost(cause: unknown): void {
    this.lost ??= cause;
  }

  lostTransaction(): unknown {
    return this.lost ?? new DatabaseUnavailable('the database rolled the transaction back');
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    await s.lockWriter(true);
    if (this.group) {
      try {
        this.writer.prepare('SAVEPOINT member').stmt.run();
      } catch (err) {
        await this.endGroup(s, err);
        throw err;
      }
      s.joined = true;
    } else {
      try {
        await s.onWriter((w) => w.prepare('BEGIN IMMEDIATE').stmt.run()); // prepared once: parsing it was a visible share of a short write
      } catch (err) {
        s.unlockWriter();
        throw err;
      }
      this.group = { opened: Date.now(), waiting: [] };
    }
    s.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    const group = this.group;
    if (!group) throw new Error('commit outside a transaction');
    if (s.joined) this.writer.prepare('RELEASE member').stmt.run();
    if (this.admits(group, 1)) {
      await setImmediate();
      if (this.handsOver(group, 1)) {
        const committed = new Promise<void>((resolve, reject) => group.waiting.push({ committed: resolve, failed: reject }));
        s.unlockWriter(); // to the next transaction, with this one's work inside the open SQLite transaction
        return committed;
      }
    }
    await this.endGroup(s);
  }

  /** Whether `group`, with `finishing` more waiting in it, may still take a newcomer. */
  private admits(group: CommitGroup, finishing: number): boolean {
    return group.waiting.length + finishing < MAX_GROUP && Date.now() - group.opened < MAX_GROUP_MS;
  }

  /** Whether to leave `group` open for the next holder of the gate: it may take one, and a transaction is next. */
  private handsOver(group: CommitGroup, finishing: number): boolean {
    return this.admits(group, finishing) && this.gate.nextJoins();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    // Not holding the writer: it waited in a group whose COMMIT failed (and
    // was told so); the writer is someone else's now.
    if (!s.holdsWriter) return;
    if (!s.joined) {
      // The group's first transaction: nothing else is in it yet.
      this.group = undefined;
      this.lost = undefined;
      try {
        if (this.writer.db.isTransaction) this.writer.prepare('ROLLBACK').stmt.run();
      } finally {
        s.unlockWriter();
      }
      return;
    }
    let broken: unknown;
    if (!this.writer.db.isTransaction) {
      broken = this.lostTransaction(); // SQLite rolled back the whole group: its members' work is gone too
    } else {
      try {
        this.writer.prepare('ROLLBACK TO member').stmt.run();
        this.writer.prepare('RELEASE member').stmt.run();
      } catch (err) {
        broken = err;
      }
    }
    const group = this.group;
    if (!broken && group && this.handsOver(group, 0)) {
      s.unlockWriter();
      return;
    }
    await this.endGroup(s, broken).catch(() => undefined); // this transaction fails with its own error
  }

  /**
   * Ends the open group: COMMIT (or, given `failure`, roll back) and tell
   * every transaction waiting in it, then release the gate. Also when SQLite
   * has already rolled the transaction back itself (a full disk, an I/O error).
   */
  private async endGroup(s: Session, failure?: unknown): Promise<void> {
    const group = this.group;
    this.group = undefined;
    try {
      if (failure !== undefined) throw failure; // rolled back below
      if (!this.writer.db.isTransaction) throw this.lostTransaction();
      await s.onWriter((w) => w.prepare('COMMIT').stmt.run()); // a busy COMMIT leaves the transaction open: retrying is safe
    } catch (err) {
      this.lost = undefined;
      for (const w of group?.waiting ?? []) w.failed(err);
      if (this.writer.db.isTransaction) this.writer.db.exec('ROLLBACK');
      s.unlockWriter();
      throw err;
    }
    this.lost = undefined;
    for (const w of group?.waiting ?? []) w.committed();
    s.unlockWriter();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const s = connection as Session;
    if (s.inTransaction) await this.rollbackTransaction(s); // never leave the writer mid-transaction
    s.unlockWriter();
  }

  async destroy(): Promise<void> {
    await this.checkpointer?.stop();
    this.checkpointer = undefined;
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

  constructor(
    private readonly file: string,
    private readonly logger?: Logger,
  ) {}
  /** Writers waiting for the writer connection (0 before the driver exists). */
  writersWaiting(): number {
    return this.driver?.gate.waiting ?? 0;
  }
  createDriver(): Driver {
    this.driver = new SqliteDriver(this.file, this.logger);
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
