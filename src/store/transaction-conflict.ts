// Recognises a transaction the database ended because it collided with
// another one, not because it was wrong: PostgreSQL's deadlock detector
// (40P01) picks one of two transactions waiting on each other's row locks
// (two writes bump the shared table_versions rows in opposite orders), and a
// serialization failure (40001) is the same kind of verdict. The victim was
// rolled back whole, so running it again is what any client would do next;
// transact() does it for them. SQLite has one writer and never reports these.
// So is a prepared statement that another instance's migration made stale
// (postgres-prepared.ts): the store has forgotten it and dropped the
// connection, and the next run prepares it afresh.
import { isStalePreparedStatement } from './postgres-prepared.js';

const CONFLICT_STATES = new Set(['40P01', '40001']);

export function isTransactionConflict(err: unknown): boolean {
  if (isStalePreparedStatement(err)) return true;
  return typeof err === 'object' && err !== null && CONFLICT_STATES.has((err as { code?: unknown }).code as string);
}
