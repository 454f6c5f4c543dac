// The baseline of the advisories list benchmark: a bare Fastify route over the
// same driver and the same seeded tables, with each filter's SQL written by
// hand (uid keyset, 50 rows, then the page's events in one query), and the
// trigram variants of `query` (PostgreSQL: LIKE with a pg_trgm GIN index,
// made by --trigram; SQLite: an FTS5 trigram table, MATCH). Run by
// bench/advisories-list.ts in its own process.
// Usage: node dist/bench/advisories-bare-server.js <sqlite file | postgres:// URL>
import Fastify from 'fastify';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

const target = process.argv[2];
const postgres = target.startsWith('postgres');
type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

function sqliteQuery(file: string): Query {
  const db = new DatabaseSync(file);
  const statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  return async (text, params) => {
    const sqliteText = text.replace(/\$\d+/g, '?');
    let stmt = statements.get(sqliteText);
    if (!stmt) {
      stmt = db.prepare(sqliteText);
      statements.set(sqliteText, stmt);
    }
    return stmt.all(...(params as string[])) as Record<string, unknown>[];
  };
}

function postgresQuery(url: string): Query {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  return async (text, params) => (await pool.query(text, params)).rows as Record<string, unknown>[];
}

const query = postgres ? postgresQuery(target) : sqliteQuery(target);
const app = Fastify();

/** The WHERE terms of each case, before the keyset term; `$n` numbered from 1. */
function where(c: string, v: string[]): { sql: string; params: unknown[] } {
  const list = (from: number, n: number) => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
  switch (c) {
    case 'none':
      return { sql: '', params: [] };
    case 'artifact':
      return { sql: 'artifact_name = $1 and ', params: [v[0]] };
    case 'aliases':
      return { sql: `uid in (select advisory_uid from advisory_aliases where alias in (${list(1, v.length)})) and `, params: v };
    case 'query':
      return { sql: `search like $1 escape '\\' and `, params: [`%${v[0]}%`] };
    case 'query_trigram':
      return postgres
        ? { sql: `search like $1 escape '\\' and `, params: [`%${v[0]}%`] }
        : { sql: 'rowid in (select rowid from advisories_fts where advisories_fts match $1) and ', params: [`"${v[0].replace(/"/g, '""')}"`] };
    case 'review':
      return {
        sql: 'exists (select 1 from advisory_events e where e.advisory_uid = advisories.uid and e.review_state in (1)) and not exists (select 1 from advisory_events e where e.advisory_uid = advisories.uid and e.author in ($1)) and ',
        params: [v[0]],
      };
    default:
      throw new Error(`unknown case ${c}`);
  }
}

app.get('/advisories', async (req) => {
  const q = req.query as { case: string; v?: string | string[]; after?: string };
  const v = q.v === undefined ? [] : Array.isArray(q.v) ? q.v : [q.v];
  const w = where(q.case, v);
  const n = w.params.length;
  const rows = await query(`select * from advisories where ${w.sql}uid > $${n + 1} order by uid limit 50`, [...w.params, q.after ?? '']);
  const uids = rows.map((r) => r.uid as string);
  const events =
    uids.length === 0
      ? []
      : await query(`select * from advisory_events where advisory_uid in (${uids.map((_, i) => `$${i + 1}`).join(', ')}) order by create_time, uid`, uids);
  return { advisories: rows, events: events.length };
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`bare at ${address}`);
