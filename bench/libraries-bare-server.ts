// The baseline of the libraries benchmark: a bare Fastify route over the same
// driver and the same seeded catalogue, with each list's SQL written by hand
// (the artifacts of one ecosystem and group by name, keyset on (name, key);
// one artifact's versions looked up by uid, then by rank, newest first), 50
// rows and the next cursor, no totals, no authentication. Run by
// bench/libraries.ts in its own process.
// Usage: node dist/bench/libraries-bare-server.js <sqlite file | postgres:// URL> <group uid>
import Fastify from 'fastify';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

const [target, group] = process.argv.slice(2);
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
const ARTIFACT_COLUMNS = 'key, uid, ecosystem, name, description, latest_version, version_count, create_time, update_time';
const VERSION_COLUMNS = 'key, artifact_key, uid, version, version_rank, description, size_bytes, create_time, update_time, remediated';

app.get('/artifacts', async (req) => {
  const q = req.query as { name?: string; key?: string };
  const rows = await query(
    `select ${ARTIFACT_COLUMNS} from library_artifacts where ecosystem = $1 and group_uid = $2 and (name, key) > ($3, $4) order by name, key limit 51`,
    ['python', group, q.name ?? '', q.key ?? ''],
  );
  const last = rows.length > 50 ? rows[49] : undefined;
  return { artifacts: rows.slice(0, 50), next: last ? { name: last.name, key: last.key } : null };
});

app.get('/versions/:uid', async (req) => {
  const { uid } = req.params as { uid: string };
  const artifact = await query('select key, name from library_artifacts where uid = $1 and group_uid = $2', [uid, group]);
  if (artifact.length === 0) return { versions: [] };
  const rows = await query(
    `select ${VERSION_COLUMNS} from library_versions where artifact_key = $1 and (version_rank, key) < ($2, $3) order by version_rank desc, key desc limit 51`,
    [artifact[0].key, '9999999999', '\uffff'],
  );
  return { versions: rows.slice(0, 50) };
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`bare at ${address}`);
