// Recognises a unique-constraint violation from either database. Services check
// for duplicates first; this catches the race where two requests pass that
// check together and the index stops the second.
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const PG_UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; errcode?: unknown };
  if (e.code === PG_UNIQUE_VIOLATION) return true;
  return e.code === 'ERR_SQLITE_ERROR' && (e.errcode === SQLITE_CONSTRAINT_UNIQUE || e.errcode === SQLITE_CONSTRAINT_PRIMARYKEY);
}
