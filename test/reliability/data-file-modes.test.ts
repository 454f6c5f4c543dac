// The SQLite database holds the token signing key: whatever the data
// directory's mode, Berth's files in it are readable by their owner only, and
// a directory other users can read is reported on stderr.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';

interface Running {
  url: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `berth serve` on SQLite in `dataDir` (its own spawn: the harness does not keep stderr). */
async function serveSqlite(dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, [CLI, 'serve', '--listen', '127.0.0.1:0', '--registry-listen', 'off', '--data', dataDir, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`berth did not start:\n${out}${err}`)), 30_000);
    // The banner is on stderr (stdout holds only JSON log lines).
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /berth is serving at (http\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`berth exited with ${code}:\n${out}${err}`)));
  });
  return {
    url,
    stderr: () => err,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function modes(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, (statSync(join(dir, f)).mode & 0o777).toString(8)]));
}

describe('files in the data directory', () => {
  it('are 0600 in a pre-created 0755 directory, which is reported on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-modes-'));
    chmodSync(dir, 0o755);
    const berth = await serveSqlite(dir);
    try {
      const token = ownerToken(join(dir, 'admin-credentials.json'), berth.url);
      const created = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'modes.example' } });
      assert.equal(created.status, 200, created.text); // a write, so the WAL is in use

      const found = modes(dir);
      for (const f of ['berth.db', 'berth.db-wal', 'berth.db-shm', 'admin-credentials.json']) assert.ok(f in found, `${f} exists`);
      for (const [f, mode] of Object.entries(found)) assert.equal(mode, '600', `${f} is 0600`);
      assert.match(berth.stderr(), /warning: the data directory .* is readable by other users \(mode 0755\)/);
    } finally {
      await berth.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('narrows a database file left readable by others to 0600, and says nothing of a private directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-modes-'));
    let berth = await serveSqlite(dir);
    await berth.stop();
    chmodSync(join(dir, 'berth.db'), 0o644);
    berth = await serveSqlite(dir);
    try {
      for (const [f, mode] of Object.entries(modes(dir))) assert.equal(mode, '600', `${f} is 0600`);
      assert.doesNotMatch(berth.stderr(), /readable by other users/);
    } finally {
      await berth.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
