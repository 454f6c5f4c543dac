// WHERE terms of a listed page, as data: a shape (what makes the SQL), the
// values it binds, and how Kysely writes it. A page query is then compiled
// once per combination of shapes and run with each request's values
// (store/compiled-queries.ts).
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { descendantRange } from '../core/uidp.js';

// Kysely cannot type a table chosen at run time; this module is where that ends.
// biome-ignore lint/suspicious/noExplicitAny: Kysely cannot type a table chosen at run time
export type AnyEB = ExpressionBuilder<any, any>;

export interface Condition {
  /** Everything that changes the SQL apart from the values (columns, operators, how many values). */
  readonly shape: string;
  readonly values: readonly unknown[];
  /** Writes the term; `values` are this condition's values (or stand-ins for them). */
  where(eb: AnyEB, values: readonly unknown[]): Expression<SqlBool>;
}

export function equal(column: string, value: string | number): Condition {
  return { shape: `${column} =`, values: [value], where: (eb, [v]) => eb(column, '=', v) };
}

export function atLeast(column: string, value: string): Condition {
  return { shape: `${column} >=`, values: [value], where: (eb, [v]) => eb(column, '>=', v) };
}

export function oneOf(column: string, values: readonly string[]): Condition {
  if (values.length === 0) return never;
  return { shape: `${column} in ${values.length}`, values, where: (eb, vs) => eb(column, 'in', vs) };
}

export function isNull(column: string): Condition {
  return { shape: `${column} is null`, values: [], where: (eb) => eb(column, 'is', null) };
}

export const never: Condition = { shape: 'false', values: [], where: () => sql<SqlBool>`1 = 0` };

/** A term with no values of its own, written once (`name` must be unique to it). */
export function fixed(name: string, term: () => Expression<SqlBool>): Condition {
  return { shape: `fixed ${name}`, values: [], where: term };
}

export function anyOf(conditions: readonly Condition[]): Condition {
  if (conditions.length === 0) return never;
  return {
    shape: `or(${conditions.map((c) => c.shape).join(', ')})`,
    values: conditions.flatMap((c) => c.values),
    where: (eb, vs) => eb.or(split(conditions, vs).map(([c, v]) => c.where(eb, v))),
  };
}

/** Pairs each condition with its share of `values` (laid out as in their concatenation). */
export function split(conditions: readonly Condition[], values: readonly unknown[]): Array<[Condition, readonly unknown[]]> {
  let at = 0;
  return conditions.map((c) => {
    const mine = values.slice(at, at + c.values.length);
    at += c.values.length;
    return [c, mine];
  });
}

/**
 * Rows at or below (self) / strictly below one of `uids`: one key range per
 * uid, since a uid's subtree is [uid, uid "0") and its strict descendants
 * [uid "/", uid "0"). `column` is how the uid column is written: the plain
 * reference lets the planner search the uid index; a reference it cannot use
 * an index for (SQLite's +uid) makes it walk the order's index and filter.
 */
export function inSubtrees(uids: readonly string[], self: boolean, column?: { name: string; write: () => Expression<string> }): Condition {
  if (uids.length === 0) return never;
  const values = uids.flatMap((g) => {
    const r = descendantRange(g);
    return [self ? g : r.low, r.high];
  });
  return {
    shape: `subtrees ${uids.length} ${column?.name ?? 'uid'}`,
    values,
    where: (eb, vs) => {
      const ref = column ? column.write() : eb.ref('uid');
      const ranges: Array<Expression<SqlBool>> = [];
      for (let i = 0; i < vs.length; i += 2) ranges.push(eb.and([eb(ref, '>=', vs[i]), eb(ref, '<', vs[i + 1])]));
      return ranges.length === 1 ? ranges[0] : eb.or(ranges);
    },
  };
}

/**
 * A sub-query term: EXISTS (or, negated, NOT EXISTS) of the query `subquery`
 * writes, which may refer to the listed table's columns (a correlated
 * sub-query). `name` must be unique to the sub-query's SQL; the number of
 * values is part of the shape, and `subquery` must use each value only as a value.
 */
export function exists(
  name: string,
  values: readonly unknown[],
  subquery: (eb: AnyEB, values: readonly unknown[]) => Expression<unknown>,
  negate = false,
): Condition {
  return {
    shape: `${negate ? 'not exists' : 'exists'} ${name} ${values.length}`,
    values,
    where: (eb, vs) => (negate ? eb.not(eb.exists(subquery(eb, vs))) : eb.exists(subquery(eb, vs))),
  };
}

/** `column IN (subquery)`: for sub-queries selective enough that the database should start from them (exact ids). */
export function inSubquery(
  column: string,
  name: string,
  values: readonly unknown[],
  subquery: (eb: AnyEB, values: readonly unknown[]) => Expression<unknown>,
): Condition {
  return { shape: `${column} in ${name} ${values.length}`, values, where: (eb, vs) => eb(column, 'in', subquery(eb, vs) as never) };
}

/** LIKE's wildcards and its escape character, escaped (for ESCAPE '\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `column` contains `text` as a substring, compared as stored (a
 * case-insensitive search lower-cases both sides beforehand). Both databases
 * read the pattern the same way with an explicit ESCAPE.
 */
export function contains(column: string, text: string): Condition {
  return {
    shape: `${column} contains`,
    values: [`%${escapeLike(text)}%`],
    where: (_eb, [v]) => sql<SqlBool>`${sql.ref(column)} like ${v} escape '\\'`,
  };
}
