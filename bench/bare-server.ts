// The baseline the API benchmark compares Berth with: bare Fastify routes over
// the same driver (node:sqlite on the same file, or pg on the same database)
// and the same seeded repos table, with none of Berth's layers (no auth, no
// protobuf, no query builder). Run by bench/api.ts in its own process.
// Usage: node dist/bench/bare-server.js <sqlite file | postgres:// URL>
import Fastify from 'fastify';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { newChildUid } from '../src/core/uidp.js';

const target = process.argv[2];
const COLUMNS = 'uid, parent_uid, name, description, create_time, update_time';
const LIST_FIRST = `SELECT ${COLUMNS} FROM repos ORDER BY name, uid LIMIT 50`;
const GET = `SELECT ${COLUMNS} FROM repos WHERE uid = $1`;
const INSERT = `INSERT INTO repos (uid, parent_uid, name, description, readme, create_time, update_time) VALUES ($1, $2, $3, $4, '', $5, $6)`;

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

function sqliteQuery(file: string): Query {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA synchronous = NORMAL'); // as Berth's writer connection
  const statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  return async (text, params) => {
    const sqliteText = text.replace(/\$\d+/g, '?');
    let stmt = statements.get(sqliteText);
    if (!stmt) {
      stmt = db.prepare(sqliteText);
      statements.set(sqliteText, stmt);
    }
    if (stmt.columns().length > 0) return stmt.all(...(params as string[])) as Record<string, unknown>[];
    stmt.run(...(params as string[]));
    return [];
  };
}

function postgresQuery(url: string): Query {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (text, params) => (await pool.query(text, params)).rows as Record<string, unknown>[];
}

const query = target.startsWith('postgres') ? postgresQuery(target) : sqliteQuery(target);
const app = Fastify();

app.get('/repos', async (req) => {
  const { after, after_uid: afterUid } = req.query as { after?: string; after_uid?: string };
  const rows =
    after === undefined
      ? await query(LIST_FIRST, [])
      : await query(`SELECT ${COLUMNS} FROM repos WHERE (name, uid) > ($1, $2) ORDER BY name, uid LIMIT 50`, [after, afterUid ?? '']);
  const last = rows[rows.length - 1];
  return { repos: rows, next: last ? { name: last.name, uid: last.uid } : null };
});

app.get('/repos/*', async (req, reply) => {
  const rows = await query(GET, [(req.params as { '*': string })['*']]);
  if (rows.length === 0) return reply.code(404).send({ error: 'not found' });
  return rows[0];
});

app.post('/repos/*', async (req) => {
  const parent = (req.params as { '*': string })['*'];
  const { name } = req.body as { name: string };
  const now = new Date().toISOString();
  const row = { uid: newChildUid(parent), parent_uid: parent, name, description: '', create_time: now, update_time: now };
  await query(INSERT, [row.uid, row.parent_uid, row.name, row.description, row.create_time, row.update_time]);
  return row;
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`bare at ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
