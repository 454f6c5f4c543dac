// PostgreSQL may end Berth's connections at any time (pg_terminate_backend, a
// restart, idle_session_timeout): the process stays up, a request caught on a
// dead connection answers 503 at worst, and the next ones succeed — on the
// API and on the registry listener alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startBerth, usingPostgres, type Berth } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';
import { basic, cliToken, registryHost, tokenGet } from '../harness/registry-client.js';

async function terminateBackends(berth: Berth): Promise<number> {
  const admin = new pg.Client({ connectionString: process.env.BERTH_TEST_PG });
  await admin.connect();
  try {
    const name = new URL(berth.databaseUrl!).pathname.slice(1);
    const r = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    return r.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL ending Berth’s connections', { skip: usingPostgres() ? false : 'needs BERTH_TEST_PG' }, () => {
  it('keeps the process serving while requests run: 200 or 503 with Retry-After, never 500 or a dropped connection', async () => {
    const berth = await startBerth();
    try {
      const token = ownerToken(berth.credentialsFile);
      const registryAuth = basic('_token', cliToken(berth, registryHost(berth)).token);
      let running = true;
      const statuses: number[] = [];
      const failures: string[] = [];
      const worker = async (w: number) => {
        for (let i = 0; running; i++) {
          try {
            // The API's reads and writes, and the registry's token service (reads grants and repos).
            const r =
              i % 3 === 0
                ? await rest(berth.url, 'GET', '/registry/v2/repos?page_size=5', { token })
                : i % 3 === 1
                  ? await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: `w${w}-${i}` } })
                  : await tokenGet(berth, [`repository:${berth.orgName}/w${w}-${i - 1}:pull,push`], registryAuth);
            statuses.push(r.status);
            if (r.status === 503) assert.ok(r.headers.get('retry-after'), 'a 503 carries Retry-After');
            else assert.equal(r.status, 200, r.text);
          } catch (err) {
            failures.push(String(err));
            return;
          }
        }
      };
      const workers = Array.from({ length: 6 }, (_, w) => worker(w));
      await sleep(300);
      let terminated = 0;
      for (let round = 0; round < 3; round++) {
        terminated += await terminateBackends(berth);
        await sleep(200);
      }
      running = false;
      await Promise.all(workers);
      assert.ok(terminated > 0, 'connections were terminated');
      assert.deepEqual(failures, []);
      assert.equal(berth.process.exitCode, null, 'the process is still running');
      assert.ok(statuses.filter((s) => s === 200).length > 0);
    } finally {
      await berth.stop();
    }
  });

  it('answers again within a second after its idle connections are terminated', async () => {
    const berth = await startBerth();
    try {
      const token = ownerToken(berth.credentialsFile);
      // Fill the pool with idle connections, then end them all.
      await Promise.all(Array.from({ length: 5 }, () => rest(berth.url, 'GET', '/iam/v2/groups', { token })));
      assert.ok((await terminateBackends(berth)) > 0, 'connections were terminated');
      await sleep(100);
      const start = Date.now();
      let last = await rest(berth.url, 'GET', '/iam/v2/groups', { token });
      while (last.status !== 200 && Date.now() - start < 1000) last = await rest(berth.url, 'GET', '/iam/v2/groups', { token });
      assert.equal(last.status, 200, last.text);
      assert.equal((await rest(berth.url, 'GET', '/healthz')).status, 200);
      assert.equal(berth.process.exitCode, null, 'the process is still running');
    } finally {
      await berth.stop();
    }
  });
});
