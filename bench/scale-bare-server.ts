// The baseline of bench/scale.ts's lists: a bare Fastify route over the same
// driver and the same seeded repos, the keyset SQL written by hand — 50 rows
// in (name, uid) order from the start, after a cursor, or descending, and 50
// rows of one uid subtree in uid order — with no authentication, no totals
// and no page token. Run by bench/scale.ts in its own process.
// Usage: node dist/bench/scale-bare-server.js <postgres URL>
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.argv[2], max: 8 });
const COLUMNS = 'uid, parent_uid, name, description, create_time, update_time';
const query = async (text: string, params: unknown[]) => (await pool.query({ name: text, text, values: params })).rows as Array<Record<string, string>>;
const app = Fastify();
const page = (rows: Array<Record<string, string>>) => ({
  repos: rows,
  next: rows.length > 0 ? { name: rows[rows.length - 1].name, uid: rows[rows.length - 1].uid } : null,
});

app.get('/repos', async (req) => {
  const q = req.query as { after?: string; after_uid?: string; desc?: string; low?: string; high?: string };
  if (q.low !== undefined) return page(await query(`select ${COLUMNS} from repos where uid >= $1 and uid < $2 order by uid limit 50`, [q.low, q.high]));
  if (q.desc !== undefined) return page(await query(`select ${COLUMNS} from repos order by name desc, uid desc limit 50`, []));
  if (q.after !== undefined)
    return page(await query(`select ${COLUMNS} from repos where (name, uid) > ($1, $2) order by name, uid limit 50`, [q.after, q.after_uid ?? '']));
  return page(await query(`select ${COLUMNS} from repos order by name, uid limit 50`, []));
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`bare at ${address}`);
