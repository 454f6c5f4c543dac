// Queries whose SQL depends only on their shape are built and compiled by
// Kysely once per dialect and shape, then run with each request's values.
// Building and compiling the same query on every request was a visible share
// of a list and a GET (docs/performance.md). A query is built with placeholder values; the compiled
// parameters that are placeholders become slots filled from `values`, and
// any others (constants written into the query) are kept as they are.
// A compiled query is found by its handle, an object each call site makes
// once (compiledQuery), never by a name: two call sites whose descriptions
// happen to match each compile and run their own SQL.
import { CompiledQuery, SelectQueryNode, type Compilable, type Insertable, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { directReadsOf } from './direct-reads.js';
import { pooledReadsOf } from './pooled-reads.js';
import { setRecent } from '../core/recent-map.js';

interface Entry {
  compiled: CompiledQuery;
  /** Per compiled parameter: index into the values, or -1 for a constant. */
  slots: number[];
  select: boolean;
}

/** A call site's compiled query: made once (module scope) by compiledQuery, passed to runCompiled. */
export interface CompiledQueryHandle {
  /** For people reading errors and profiles; never part of the cache key. */
  readonly description: string;
}

// Each handle's own number, which the cache keys hold: only compiledQuery makes one.
const handleIds = new WeakMap<CompiledQueryHandle, number>();
let lastHandleId = 0;

/** A new handle, distinct from every other, whatever its description. */
export function compiledQuery(description: string): CompiledQueryHandle {
  const handle = Object.freeze({ description });
  handleIds.set(handle, ++lastHandleId);
  return handle;
}

// Per dialect adapter, which a Kysely instance shares with its transactions.
const caches = new WeakMap<object, Map<string, Entry>>();
const MAX_SHAPES = 1000;
const MARK = '\u0000berth-slot:';

/** Stand-ins for `count` values while a query is built: strings only compiled parameters may hold. */
function placeholders(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${MARK}${i}\u0000`);
}

function compile(build: (values: readonly unknown[]) => Compilable<unknown>, count: number): Entry {
  const marks = placeholders(count);
  const compiled = build(marks).compile();
  const index = new Map(marks.map((m, i) => [m, i]));
  const slots = compiled.parameters.map((p) => (typeof p === 'string' ? (index.get(p) ?? -1) : -1));
  if (compiled.sql.includes(MARK)) throw new Error(`a value of a compiled query's shape was written into its SQL: ${compiled.sql}`);
  return { compiled, slots, select: SelectQueryNode.is(compiled.query) };
}

// biome-ignore lint/suspicious/noExplicitAny: Kysely cannot type a table chosen at run time
type AnyDb = Kysely<any>;

/** A handle with what else of its call site changes the SQL (a column list, a condition's form). */
export interface ShapedQuery {
  handle: CompiledQueryHandle;
  shape: string;
}

/**
 * Runs the query `build` makes from `values`, compiled once per handle,
 * shape and number of values; `build` must use each value only as a value.
 */
export async function runCompiled<R>(
  db: AnyDb,
  query: CompiledQueryHandle | ShapedQuery,
  values: readonly unknown[],
  build: (values: readonly unknown[]) => Compilable<unknown>,
): Promise<R[]> {
  const [handle, shape] = 'handle' in query ? [query.handle, query.shape] : [query, ''];
  const id = handleIds.get(handle);
  if (id === undefined) throw new Error(`not a handle made by compiledQuery: ${handle.description}`);
  const adapter = db.getExecutor().adapter;
  let cache = caches.get(adapter);
  if (!cache) {
    cache = new Map();
    caches.set(adapter, cache);
  }
  const key = `${id}\u0000${values.length}\u0000${shape}`;
  let entry = cache.get(key);
  if (!entry) {
    entry = compile(build, values.length);
    setRecent(cache, key, entry, MAX_SHAPES);
  }
  const { compiled, slots } = entry;
  const parameters = slots.map((s, i) => (s < 0 ? compiled.parameters[i] : values[s]));
  if (entry.select) return readRows<R>(db, compiled.sql, parameters, compiled);
  const result = await db.executeQuery<R>({ ...compiled, parameters });
  return result.rows;
}

/**
 * Runs a SELECT: outside a transaction straight on SQLite's reader connection
 * (direct-reads.ts) or a pooled PostgreSQL connection (pooled-reads.ts), else
 * through Kysely's executor. `compiled` keeps the query node for the executor.
 */
export async function readRows<R>(
  // biome-ignore lint/suspicious/noExplicitAny: any schema
  db: Kysely<any>,
  sql: string,
  parameters: readonly unknown[],
  compiled: CompiledQuery = CompiledQuery.raw(sql, [...parameters]),
): Promise<R[]> {
  const direct = directReadsOf(db);
  if (direct) return direct.read<R>(sql, parameters);
  const pooled = pooledReadsOf(db);
  if (pooled) return pooled.read<R>(sql, parameters);
  return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
}

const INSERT = compiledQuery('insert a row');

/**
 * Inserts `row` into `table`, compiled once per table and set of columns: for
 * inserts every request makes (a created resource, its outbox event). The
 * column names come from code, never from a request.
 */
export async function insertCompiled<T extends keyof Database & string>(db: Kysely<Database>, table: T, row: Insertable<Database[T]>): Promise<void> {
  const columns = Object.keys(row);
  const any = db as unknown as AnyDb;
  await runCompiled(any, { handle: INSERT, shape: `${table} (${columns.join(',')})` }, Object.values(row), (v) =>
    any.insertInto(table).values(Object.fromEntries(columns.map((c, i) => [c, v[i]]))),
  );
}
