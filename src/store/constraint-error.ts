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

const SQLITE_CONSTRAINT = 19;
const PG_FOREIGN_KEY_VIOLATION = '23503';

/**
 * A foreign key refused the change: e.g. deleting a row something still
 * references. SQLite reports ON DELETE RESTRICT through its trigger machinery
 * (extended code SQLITE_CONSTRAINT_TRIGGER, not _FOREIGNKEY), so the primary
 * code and its fixed message are what both forms share.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown };
  if (e.code === PG_FOREIGN_KEY_VIOLATION) return true;
  return (
    e.code === 'ERR_SQLITE_ERROR' &&
    typeof e.errcode === 'number' &&
    (e.errcode & 0xff) === SQLITE_CONSTRAINT &&
    /FOREIGN KEY constraint failed/.test(String(e.message))
  );
}
