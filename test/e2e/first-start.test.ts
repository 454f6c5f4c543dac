// First start is all or nothing: the organization exists exactly when its
// owner's keys are on disk. `berth admin recover-owner` makes new keys for an
// operator who lost them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, dropDatabase, freshDatabase, startBerth, usingPostgres } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

describe('first start', () => {
  it('creates a missing data directory 0700 and writes the credentials there', async () => {
    const base = tmp('berth-fs-');
    const dataDir = join(base, 'not', 'yet');
    const berth = await startBerth({ dataDir });
    try {
      assert.equal(statSync(dataDir).mode & 0o777, 0o700);
      const file = join(dataDir, 'admin-credentials.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const token = ownerToken(file, berth.url);
      const org = await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token });
      assert.equal(org.status, 200, org.text);
    } finally {
      await berth.stop();
      await dropDatabase(berth.databaseUrl);
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('keeps an older credentials file of the same name instead of overwriting it', async () => {
    const dataDir = tmp('berth-fs-');
    writeFileSync(join(dataDir, 'admin-credentials.json'), '{"from":"an older database"}\n', { mode: 0o600 });
    const berth = await startBerth({ dataDir });
    try {
      const kept = readdirSync(dataDir).filter((f) => /^admin-credentials\.json\..*\.old$/.test(f));
      assert.equal(kept.length, 1, readdirSync(dataDir).join(', '));
      assert.equal(readFileSync(join(dataDir, kept[0]), 'utf8'), '{"from":"an older database"}\n');
      const token = ownerToken(join(dataDir, 'admin-credentials.json'), berth.url);
      assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).status, 200);
    } finally {
      await berth.stop();
      await dropDatabase(berth.databaseUrl);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('creates no organization when the credentials cannot be written, and does on the next start', {
    skip: !usingPostgres() && 'needs PostgreSQL: on SQLite the database lives in the data directory',
  }, async () => {
    const databaseUrl = await freshDatabase();
    const base = tmp('berth-fs-');
    const blocker = join(base, 'a-file');
    writeFileSync(blocker, 'not a directory');
    try {
      await assert.rejects(startBerth({ databaseUrl, dataDir: join(blocker, 'data') }), /exited/);
      const good = join(base, 'data');
      const berth = await startBerth({ databaseUrl, dataDir: good });
      try {
        assert.ok(existsSync(join(good, 'admin-credentials.json')), 'the retried first start wrote credentials');
        const token = ownerToken(join(good, 'admin-credentials.json'), berth.url);
        const orgs = await rest(berth.url, 'GET', '/iam/v2/groups?uidp.inRoot=true', { token });
        assert.equal(orgs.json.totalCount, '1', 'exactly one organization: the failed start left none');
      } finally {
        await berth.stop();
      }
    } finally {
      await dropDatabase(databaseUrl);
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('berth admin recover-owner', () => {
  it('creates a fresh owner whose keys work while the server runs', async () => {
    const berth = await startBerth();
    const out = join(berth.dataDir, 'recovered.json');
    try {
      const args = [CLI, 'admin', 'recover-owner', '--data', berth.dataDir, '--out', out, '--api', berth.url];
      if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
      const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /Created owner/);
      assert.equal(statSync(out).mode & 0o777, 0o600);
      const token = ownerToken(out, berth.url);
      const patched = await rest(berth.url, 'PATCH', `/iam/v2/groups/${berth.orgUid}`, { token, body: { description: 'recovered' } });
      assert.equal(patched.status, 200, patched.text);
      const again = spawnSync(process.execPath, args, { encoding: 'utf8' });
      assert.notEqual(again.status, 0, 'an existing --out file is never overwritten');
      assert.match(again.stderr, /already exists/);
      const unknown = spawnSync(process.execPath, [...args.filter((a) => a !== out && a !== '--out'), '--org', 'no-such-org'], { encoding: 'utf8' });
      assert.notEqual(unknown.status, 0);
      assert.match(unknown.stderr, /no organization named "no-such-org"/);
    } finally {
      await berth.stop();
    }
  });

  it("records the server's public URL from the database, or --api", async () => {
    const berth = await startBerth();
    try {
      const base = [CLI, 'admin', 'recover-owner', '--data', berth.dataDir];
      if (berth.databaseUrl) base.push('--database', berth.databaseUrl);
      const recorded = join(berth.dataDir, 'recorded.json');
      const r = spawnSync(process.execPath, [...base, '--out', recorded], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      // The server listens on a free port: not the default 8080.
      assert.equal(JSON.parse(readFileSync(recorded, 'utf8')).api, berth.url);
      assert.match(r.stderr, new RegExp(`for the API at ${berth.url} \\(the server's public URL, from the database\\)`));
      const token = ownerToken(recorded); // the URL in the file reaches the server
      assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).status, 200);

      const given = join(berth.dataDir, 'given.json');
      const g = spawnSync(process.execPath, [...base, '--out', given, '--api', 'https://berth.example/'], { encoding: 'utf8' });
      assert.equal(g.status, 0, g.stderr);
      assert.equal(JSON.parse(readFileSync(given, 'utf8')).api, 'https://berth.example');
    } finally {
      await berth.stop();
    }
  });
});
