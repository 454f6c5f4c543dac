// One --data serves one registry process: a second `berth serve` on it
// refuses to start and says why (an append in one process could otherwise
// write into a blob another just committed), and the lock dies with its
// holder, so a server killed with SIGKILL does not block the next start.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dropDatabase, freshDatabase, startBerth } from '../harness/berth-process.js';
import { registryGet } from '../harness/registry-client.js';

describe('one data directory, one server', () => {
  it('refuses a second server on the same --data, and starts again after the first was killed with SIGKILL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-one-'));
    const databaseUrl = await freshDatabase();
    try {
      const first = await startBerth({ dataDir, databaseUrl });
      try {
        const second = startBerth({ dataDir, databaseUrl });
        second.then(
          (b) => b.stop(),
          () => undefined,
        ); // one that started anyway must not outlive the test
        await assert.rejects(second, /exited with 1[\s\S]*blob store \S+ is in use by another berth process[\s\S]*one --data serves one process/);
        assert.equal((await registryGet(first, '/v2/')).status, 401, 'the first server still serves');
      } finally {
        await first.stop('SIGKILL');
      }
      const next = await startBerth({ dataDir, databaseUrl });
      try {
        assert.equal((await registryGet(next, '/v2/')).status, 401);
      } finally {
        await next.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(databaseUrl);
    }
  });

  it('lets a server without the registry share the directory (SQLite file and all)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-one-'));
    const databaseUrl = await freshDatabase();
    try {
      const first = await startBerth({ dataDir, databaseUrl });
      const apiOnly = await startBerth({ dataDir, databaseUrl, extraArgs: ['--registry-listen', 'off'] });
      await Promise.all([first.stop(), apiOnly.stop()]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase(databaseUrl);
    }
  });
});
