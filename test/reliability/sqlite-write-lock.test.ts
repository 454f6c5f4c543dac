// Several processes may share one SQLite file. While another process holds
// the write lock, reads answer at once and a write gives up in bounded time
// with UNAVAILABLE and Retry-After (not INTERNAL); once the lock is free,
// writes succeed again.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { Code, ConnectError } from '@connectrpc/connect';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { startBerth, usingPostgres } from '../harness/berth-process.js';
import { grpcClient, ownerToken, rest } from '../harness/api-client.js';

describe('a SQLite write lock held by another process', { skip: usingPostgres() ? 'SQLite only' : false }, () => {
  it('does not hold up reads; a write answers 503 with Retry-After over REST and UNAVAILABLE over gRPC', async () => {
    const berth = await startBerth();
    const token = ownerToken(berth.credentialsFile);
    const other = new DatabaseSync(join(berth.dataDir, 'berth.db'));
    try {
      other.exec('BEGIN IMMEDIATE');
      const answered: string[] = [];
      const started = Date.now();
      const write = rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'blocked' } }).then((r) => {
        answered.push('write');
        return r;
      });
      await sleep(200); // the write is waiting for the lock
      const read = await rest(berth.url, 'GET', '/registry/v2/repos', { token });
      answered.push('read');
      assert.equal(read.status, 200, read.text);

      const w = await write;
      assert.deepEqual(answered, ['read', 'write'], 'the read did not wait behind the write');
      assert.equal(w.status, 503, w.text);
      assert.equal(w.json.code, 14);
      assert.equal(w.json.details[0].reason, 'UNAVAILABLE');
      assert.ok(Number(w.headers.get('retry-after')) >= 1, 'Retry-After is set');
      assert.ok(Date.now() - started < 20_000, 'the write gave up in bounded time');

      const client = grpcClient(ReposService, berth.url, token);
      await assert.rejects(client.createRepo({ parent: berth.orgUid, repo: { name: 'blocked-grpc' } }), (err: unknown) => {
        assert.ok(err instanceof ConnectError);
        assert.equal(err.code, Code.Unavailable);
        return true;
      });
    } finally {
      if (other.isTransaction) other.exec('ROLLBACK');
      other.close();
      await berth.stop();
    }
  });

  it('lets a write through once the other process commits', async () => {
    const berth = await startBerth();
    const token = ownerToken(berth.credentialsFile);
    const other = new DatabaseSync(join(berth.dataDir, 'berth.db'));
    try {
      other.exec('BEGIN IMMEDIATE');
      const write = rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'after-lock' } });
      await sleep(300);
      other.exec('COMMIT');
      const w = await write;
      assert.equal(w.status, 200, w.text);
      const got = await rest(berth.url, 'GET', `/registry/v2/repos/${w.json.uid}`, { token });
      assert.equal(got.json.name, 'after-lock');
    } finally {
      if (other.isTransaction) other.exec('ROLLBACK');
      other.close();
      await berth.stop();
    }
  });
});
