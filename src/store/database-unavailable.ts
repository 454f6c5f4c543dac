// Recognises failures that say "the database cannot be reached right now"
// rather than "this request is wrong": a connection the server ended, a
// server that is restarting or refusing connections, a SQLite write lock held
// past our wait. Transports answer these UNAVAILABLE (503, Retry-After), not
// INTERNAL, so clients retry instead of reporting a bug.

/** Raised by the store itself when it gives up waiting (lock, retry). */
export class DatabaseUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailable';
  }
}

// SQLSTATE: class 08 connection exception; 57P01-05 admin/crash shutdown,
// cannot connect now, database dropped, idle-session timeout; 25P03
// idle-in-transaction timeout; 53300 too many connections; 3D000 no such database.
const PG_STATES = /^(08...|57P0[1-5]|25P03|53300|3D000)$/;
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// pg reports a lost or unusable connection with plain Errors and these texts.
const PG_TEXTS =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailable) return true;
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const primary = e.errcode & 0xff; // extended codes keep the primary code in the low byte
    return primary === SQLITE_BUSY || primary === SQLITE_LOCKED;
  }
  if (typeof e.code === 'string' && (PG_STATES.test(e.code) || NODE_CODES.has(e.code))) return true;
  return typeof e.message === 'string' && PG_TEXTS.test(e.message);
}
