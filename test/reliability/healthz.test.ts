// /healthz needs no token, so it must not tell the caller why the database
// failed: it answers 503 {"status":"unavailable"} and the cause is logged.
// The registry port answers the same (a probe may see only that port).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startBerth, usingPostgres, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';

/** Makes the database unusable under the running server: PostgreSQL loses the database, SQLite a table healthz reads. */
async function breakDatabase(berth: Berth): Promise<void> {
  if (usingPostgres()) {
    const admin = new pg.Client({ connectionString: process.env.BERTH_TEST_PG });
    await admin.connect();
    await admin.query(`DROP DATABASE ${new URL(berth.databaseUrl!).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
  } else {
    const db = new DatabaseSync(join(berth.dataDir, 'berth.db'));
    db.exec('DROP TABLE settings');
    db.close();
  }
}

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"}, and 503 {"status":"unavailable"} without the database error when the database fails, on the API and the registry port', async () => {
    const berth = await startBerth();
    try {
      for (const base of [berth.url, berth.registryUrl as string]) {
        const ok = await rest(base, 'GET', '/healthz');
        assert.equal(ok.status, 200, `${base}: ${ok.text}`);
        assert.deepEqual(ok.json, { status: 'ok' });
      }

      await breakDatabase(berth);
      for (const base of [berth.url, berth.registryUrl as string]) {
        const down = await rest(base, 'GET', '/healthz');
        assert.equal(down.status, 503, `${base}: ${down.text}`);
        assert.deepEqual(down.json, { status: 'unavailable' });
        assert.ok(down.headers.get('retry-after'));
      }
      assert.equal(berth.process.exitCode, null, 'the process is still running');
    } finally {
      await berth.stop();
    }
  });
});
