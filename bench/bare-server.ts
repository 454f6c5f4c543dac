// The baseline the API benchmark compares Berth with: bare Fastify routes over
// the same driver (node:sqlite on the same file, or pg on the same database)
// and the same seeded repos table, with none of Berth's layers (no auth, no
// protobuf, no query builder). Run by bench/api.ts in its own process.
// With --observe MODE LOG: the same routes observed, a prom-client histogram
// by method, route and status, an access line per request written to LOG,
// and an X-Request-Id on every answer: the floor issue 29's observability aim
// is read against (bench/api-observability.ts). MODE `documented` does it as
// the libraries document it (histogram.observe with a label object, pino's
// info); `lean` with a labelled child per route and status kept, and the line
// built as one template string and written to pino's destination in 4 KiB
// batches.
// Usage: node dist/bench/bare-server.js <sqlite file | postgres:// URL> [--observe documented|lean LOG]
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import pino from 'pino';
import { Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS } from '../src/core/metrics.js';
import { newChildUid } from '../src/core/uidp.js';

const target = process.argv[2];
const observeMode = process.argv[3] === '--observe' ? process.argv[4] : undefined;
const observeLog = process.argv[5];
if (observeMode !== undefined && (!['documented', 'lean'].includes(observeMode) || observeLog === undefined)) {
  throw new Error('usage: bare-server.js <target> [--observe documented|lean LOG]');
}
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
let ids = 0;
const ID_PREFIX = randomUUID().slice(0, 24);
const app = Fastify(
  observeMode === undefined
    ? {}
    : { requestIdHeader: 'x-request-id', genReqId: observeMode === 'lean' ? () => ID_PREFIX + (++ids).toString(16).padStart(12, '0') : () => randomUUID() },
);
if (observeMode === 'documented') observeDocumented(app, observeLog!);
if (observeMode === 'lean') observeLean(app, observeLog!);

/** The histogram both ways observe into, with Berth's buckets. */
function durationHistogram(): Histogram<'method' | 'route' | 'status'> {
  return new Histogram({
    name: 'http_request_duration_seconds',
    help: 'request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [new Registry()],
  });
}

/** Every answer carries its request id. */
function returnRequestId(server: FastifyInstance): void {
  server.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
}

/** The documented way: a histogram by method, route and status, and one pino line per answer, both in onResponse. */
function observeDocumented(server: FastifyInstance, file: string): void {
  const duration = durationHistogram();
  const log = pino(pino.destination({ dest: file, sync: false }));
  returnRequestId(server);
  server.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    duration.observe({ method: req.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    const bytes = Number(reply.getHeader('content-length'));
    log.info({ method: req.method, route, status: reply.statusCode, durationMs: reply.elapsedTime, bytes, requestId: req.id }, 'request');
    done();
  });
}

/** The same outputs with less work per request: labelled children kept, the line one template string to the destination. */
function observeLean(server: FastifyInstance, file: string): void {
  const duration = durationHistogram();
  const children = new Map<string, { observe(v: number): void }>();
  const out = pino.destination({ dest: file, sync: false, minLength: 4096 }); // written in 4 KiB batches, not a write per line
  returnRequestId(server);
  server.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${req.method} ${route} ${status}`;
    let child = children.get(key);
    if (child === undefined) {
      child = duration.labels(req.method, route, String(status));
      children.set(key, child);
    }
    const ms = reply.elapsedTime;
    child.observe(ms / 1000);
    const bytes = Number(reply.getHeader('content-length'));
    out.write(
      `{"level":30,"time":${Date.now()},"pid":${process.pid},"method":"${req.method}","route":${JSON.stringify(route)},"status":${status},"durationMs":${ms},"bytes":${bytes},"requestId":"${req.id}","msg":"request"}\n`,
    );
    done();
  });
}

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
