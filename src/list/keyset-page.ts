// One keyset-paged list over any table: filters, optional uid-subtree scopes
// (the groups the caller may read), order with a unique key column as the
// tie-breaker, skip, total count and an authenticated page token. Page N
// costs what page 1 costs. It knows no domain: tables and columns are given.
// Its queries are compiled once per shape (store/compiled-queries.ts).
import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Order } from './list-params.js';
import type { PageTokens } from './page-token.js';
import type { Database } from '../store/database.js';
import type { Store } from '../store/store.js';
import { compiledQuery, runCompiled } from '../store/compiled-queries.js';
import type { TableVersions } from '../store/table-versions.js';
import { inSubtrees, split, type Condition } from './conditions.js';
import { EXACT_TOTAL_LIMIT, type ListTotals } from './list-totals.js';

const COUNT = compiledQuery('list count');
const CAPPED_COUNT = compiledQuery('list count up to a limit');
const PAGE = compiledQuery('list page');

export type { Condition } from './conditions.js';

/** 'all' or the outermost group uids whose subtrees the caller may read. */
export type Visibility = 'all' | readonly string[];

export interface PageRequest {
  table: keyof Database & string;
  /** API sort field → column. Must include the key column's field. */
  columns: Readonly<Record<string, string>>;
  /** Unique column that breaks ties and anchors the cursor; "uid" unless given. */
  key?: string;
  order: Order;
  conditions: Condition[];
  /** Columns to read; all when absent (lists leave out large ones such as readme). */
  select?: readonly string[];
  /** Subtree restrictions on uid, ANDed: the caller's visibility, uidp.descendants_of. None for tables not scoped by group. */
  scopes?: UidScope[];
  pageSize: number;
  skip: number;
  pageToken: string;
  fingerprint: string;
  /** The request's snapshot of table versions, for the cached total. */
  versions?: TableVersions;
  /** The total when the caller already knows it (a count stored with the parent row): nothing is counted. */
  knownTotal?: number;
}

export interface Page<Row> {
  rows: Row[];
  nextPageToken: string;
  totalCount: bigint;
  skipped: number;
}

export type PageTokenError = { invalid: string };

/** Rows at or below (self) / strictly below one of `uids`. */
export interface UidScope {
  uids: readonly string[];
  self: boolean;
}

// A list ordered by another column than its key, over subtrees whose rows
// are dense, walks that column's index and filters by subtree (the subtree
// written `unindexed`); over few rows, the uid ranges are searched and sorted.
// On a dense list the sorted form is orders of magnitude slower than the
// index walk (docs/performance.md). SQLite keeps no statistics, so dense is
// more than DENSE_MATCHES matches. PostgreSQL would choose the walk itself,
// but with the uid ranges as parameters its generic plan's estimate is far
// from each execution's, so it planned every execution anew (about 90 µs of
// a list's database time at a million repos, more than the statement took):
// there dense is at least 1 / DENSE_SHARE of the table's rows, where the walk
// reads at most DENSE_SHARE rows per row it returns, and the unindexed form
// keeps one generic plan.
const DENSE_MATCHES = 2000;
const DENSE_SHARE = 10;

// biome-ignore lint/suspicious/noExplicitAny: Kysely cannot type a table chosen at run time
type AnyDb = Kysely<any>;

/** The shape and values of conditions ANDed in one WHERE clause. */
function whereShape(conditions: readonly Condition[]): { shape: string; values: unknown[] } {
  return { shape: conditions.map((c) => c.shape).join(' and '), values: conditions.flatMap((c) => c.values) };
}

/**
 * The total of a list. Where the database keeps statistics (PostgreSQL),
 * matches are counted only up to EXACT_TOTAL_LIMIT + 1, walking the key's
 * index, and a list with more matches answers the planner's estimate (never
 * less than what was counted): an exact count reads every match, a scan per
 * request over a large table each time a write changed its version
 * (docs/performance.md). SQLite keeps no statistics: its counts are exact.
 */
async function countMatches(
  store: Store,
  db: AnyDb,
  table: string,
  key: string,
  where: { shape: string; values: unknown[] },
  // biome-ignore lint/suspicious/noExplicitAny: Kysely cannot type a table chosen at run time
  matching: (values: readonly unknown[]) => SelectQueryBuilder<any, any, object>,
): Promise<number> {
  const estimate = store.caps.estimateRows;
  if (!estimate) {
    const rows = await runCompiled<{ n: number | string | bigint }>(db, { handle: COUNT, shape: `${table} where ${where.shape}` }, where.values, (vs) =>
      matching(vs).select((eb) => eb.fn.countAll().as('n')),
    );
    return Number(rows[0].n);
  }
  // Ordered by the key, so the planner walks the key's index and stops at the limit.
  const rows = await runCompiled<{ n: number | string | bigint }>(
    db,
    { handle: CAPPED_COUNT, shape: `${table} where ${where.shape} key ${key}` },
    where.values,
    (vs) =>
      db
        .selectFrom(
          matching(vs)
            .select(sql.lit(1).as('one'))
            .orderBy(key as never)
            .limit(sql.lit(EXACT_TOTAL_LIMIT + 1))
            .as('capped'),
        )
        .select((eb) => eb.fn.countAll().as('n')),
  );
  const counted = Number(rows[0].n);
  if (counted <= EXACT_TOTAL_LIMIT) return counted;
  return Math.max(counted, Math.round(await estimate(matching(where.values).select(sql.lit(1).as('one')))));
}

/** Whether `total` matches are dense in the table (see DENSE_SHARE); the table's size is the planner's estimate, cached until it is written. */
async function dense(store: Store, db: AnyDb, counts: ListTotals, req: PageRequest, total: number): Promise<boolean> {
  const estimate = store.caps.estimateRows;
  if (!estimate) return total > DENSE_MATCHES;
  const rows = await counts.count(store, req.table, 'rows of the table', () => estimate(db.selectFrom(req.table).select(sql.lit(1).as('one'))), req.versions);
  return total * DENSE_SHARE >= rows;
}

export async function listPage<Row>(store: Store, tokens: PageTokens, counts: ListTotals, req: PageRequest): Promise<Page<Row> | PageTokenError> {
  const column = req.columns[req.order.field];
  const key = req.key ?? 'uid';
  const scopes = req.scopes ?? [];

  let cursor: { value: string; uid: string } | undefined;
  if (req.pageToken !== '') {
    const check = tokens.check(req.pageToken, req.fingerprint);
    if (check.kind === 'invalid') return { invalid: check.reason };
    if (check.kind === 'cursor') cursor = check.cursor;
    // expired: restart from the first page, silently
  }

  const db = store.db as unknown as AnyDb;
  const counting = [...req.conditions, ...scopes.map((s) => inSubtrees(s.uids, s.self))];
  const countWhere = whereShape(counting);
  const matching = (vs: readonly unknown[]) => {
    let c = db.selectFrom(req.table);
    for (const [cond, v] of split(counting, vs)) c = c.where((eb) => cond.where(eb, v));
    return c;
  };
  const total =
    req.knownTotal ??
    (await counts.count(
      store,
      req.table,
      `${req.fingerprint}\u0000${JSON.stringify(scopes)}`,
      () => countMatches(store, db, req.table, key, countWhere, matching),
      req.versions,
    ));

  const walkOrderIndex = scopes.length > 0 && column !== key && (await dense(store, db, counts, req, total)); // no subtree, nothing to write unindexed
  const uidColumn = walkOrderIndex ? { name: '+uid', write: () => store.caps.unindexed(key) } : undefined;
  const where = [...req.conditions, ...scopes.map((s) => inSubtrees(s.uids, s.self, uidColumn))];
  const filter = whereShape(where);
  const dir = req.order.desc ? 'desc' : 'asc';
  const op = req.order.desc ? '<' : '>';
  const cursorValues = !cursor ? [] : column === key ? [cursor.uid] : [cursor.value, cursor.uid];
  const select = req.select ?? [];
  // LIMIT is written into the SQL (at most MAX_PAGE_SIZE + 1 shapes): SQLite
  // ran a bound LIMIT slower than a literal one (docs/performance.md).
  // OFFSET, unbounded, stays a value, and is left out when 0.
  const limit = req.pageSize + 1;
  const offset = req.skip > 0;
  const shape = `${req.table} (${select.join(',')}) where ${filter.shape} cursor ${cursorValues.length} order ${column} ${dir} key ${key} limit ${limit}${offset ? ' offset' : ''}`;
  const values = [...filter.values, ...cursorValues, ...(offset ? [req.skip] : [])];
  const rows = await runCompiled<Record<string, unknown>>(db, { handle: PAGE, shape }, values, (vs) => {
    let q = select.length > 0 ? db.selectFrom(req.table).select(select as never) : db.selectFrom(req.table).selectAll();
    const at = filter.values.length;
    for (const [cond, v] of split(where, vs.slice(0, at))) q = q.where((eb) => cond.where(eb, v));
    // A row-value comparison, which both SQLite and PostgreSQL turn into
    // one index range scan on (column, uid).
    if (cursorValues.length === 1) q = q.where(key as never, op, vs[at] as never);
    if (cursorValues.length === 2) q = q.where(() => sql<SqlBool>`(${sql.ref(column)}, ${sql.ref(key)}) ${sql.raw(op)} (${vs[at]}, ${vs[at + 1]})`);
    q = q.orderBy(column as never, dir);
    if (column !== key) q = q.orderBy(key as never, dir);
    q = q.limit(sql.lit(limit));
    return offset ? q.offset(vs[at + cursorValues.length] as number) : q;
  });
  const more = rows.length > req.pageSize;
  const pageRows = more ? rows.slice(0, req.pageSize) : rows;
  let nextPageToken = '';
  if (more) {
    const last = pageRows[pageRows.length - 1];
    nextPageToken = tokens.issue(req.fingerprint, { value: String(last[column]), uid: String(last[key]) });
  }
  return { rows: pageRows as unknown as Row[], nextPageToken, totalCount: BigInt(total), skipped: req.skip };
}
