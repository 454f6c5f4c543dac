// Splits the rows of a multi-row INSERT, or the values of an IN list, into
// parts that stay under both databases' bound-parameter limits (SQLite 32766,
// PostgreSQL 65535): one statement per part.

/** Values per IN list, or rows of a few columns per INSERT: far under either limit. */
export const STATEMENT_CHUNK = 500;

export function statementChunks<T>(items: readonly T[], size = STATEMENT_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
