// GET /readyz says whether this process can serve now, on the API and the
// registry port: 200 {"status":"ready"}; 503 naming what failed (database,
// blob_store) — never why — while the database refuses connections or the
// blob store cannot be read, and 200 again once they are back. /healthz keeps
// its own contract. This server runs with --metrics off (/metrics is then not
// served) and --log-format text (its access log lines are text, not JSON).
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startBerth, usingPostgres, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.BERTH_TEST_PG });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Takes the database away from the running server (PostgreSQL: refuses its connections; SQLite: the table the probe reads), or gives it back. */
async function database(berth: Berth, up: boolean): Promise<void> {
  if (usingPostgres()) {
    const name = new URL(berth.databaseUrl!).pathname.slice(1);
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${up}`);
    if (!up) await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
    return;
  }
  const db = new DatabaseSync(join(berth.dataDir, 'berth.db'));
  db.exec(up ? 'ALTER TABLE settings_away RENAME TO settings' : 'ALTER TABLE settings RENAME TO settings_away');
  db.close();
}

/** Puts a file where the blob store's directory of blobs is (every read fails), or the directory back. */
function blobStore(berth: Berth, up: boolean): void {
  const blobs = join(berth.dataDir, 'registry', 'blobs');
  if (up) {
    rmSync(blobs);
    renameSync(`${blobs}.away`, blobs);
  } else {
    mkdirSync(blobs, { recursive: true });
    renameSync(blobs, `${blobs}.away`);
    writeFileSync(blobs, 'not a directory');
  }
}

async function readiness(berth: Berth): Promise<Array<{ status: number; body: unknown }>> {
  return Promise.all(
    [berth.url, berth.registryUrl as string].map(async (base) => {
      const r = await rest(base, 'GET', '/readyz');
      if (r.status === 503) assert.ok(r.headers.get('retry-after'), 'a 503 carries Retry-After');
      return { status: r.status, body: r.json };
    }),
  );
}

const READY = { status: 200, body: { status: 'ready' } };

describe('GET /readyz', () => {
  it('answers 503 naming the database or the blob store while it is unreachable, and 200 once it is back, on both ports', async () => {
    const berth = await startBerth({ extraArgs: ['--metrics', 'off', '--log-format', 'text', '--log-level', 'info'] });
    try {
      assert.deepEqual(await readiness(berth), [READY, READY]);
      assert.equal((await rest(berth.url, 'GET', '/metrics')).status, 404, '--metrics off serves no /metrics');
      const seen = await rest(berth.url, 'GET', '/readyz', { headers: { 'x-request-id': 'text-format-1' } });
      assert.equal(seen.headers.get('x-request-id'), 'text-format-1');
      await berth.logsMatching(/^\S+Z INFO request listener=api method=GET route=\/readyz status=200 durationMs=[\d.]+ bytes=\d+ requestId=text-format-1$/m);

      await database(berth, false);
      const down = { status: 503, body: { status: 'unavailable', failing: ['database'] } };
      assert.deepEqual(await readiness(berth), [down, down]);
      await berth.logsMatching(/WARN readiness check failed .*check=database/); // the cause is logged, not answered
      assert.equal((await rest(berth.url, 'GET', '/healthz')).status, 503, '/healthz keeps its answer');
      await database(berth, true);
      assert.deepEqual(await readiness(berth), [READY, READY]);

      blobStore(berth, false);
      const noBlobs = { status: 503, body: { status: 'unavailable', failing: ['blob_store'] } };
      assert.deepEqual(await readiness(berth), [noBlobs, noBlobs]);
      blobStore(berth, true);
      assert.deepEqual(await readiness(berth), [READY, READY]);
      assert.deepEqual((await rest(berth.url, 'GET', '/healthz')).json, { status: 'ok' });
      assert.equal(berth.process.exitCode, null, 'the process is still running');
    } finally {
      await berth.stop();
    }
  });
});
