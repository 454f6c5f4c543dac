// A full disk under a running server, for real: its --data on a small tmpfs,
// filled up. A blob chunk the disk refuses is answered 507 UNAVAILABLE with
// Retry-After (the spec's error body) and its upload is removed; an API write
// SQLite cannot make (SQLITE_FULL) is 503 UNAVAILABLE with Retry-After; the
// log names the path (never a token); /healthz says `degraded` on both ports
// while writes fail this way, and `ok` once a write succeeds again.
// Mounting needs root (or CAP_SYS_ADMIN): where mount is refused the test
// skips and says so. (`ulimit -f` would give EFBIG, not ENOSPC.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { type Berth, startBerth, usingPostgres } from '../harness/berth-process.js';
import { basic, cliToken, registryHost, tokenGet } from '../harness/registry-client.js';

const MiB = 1 << 20;

/** One registry request with a body; a server that answers before reading it all is not an error here. */
function send(base: string, method: string, path: string, token: string, body?: Buffer, headers: Record<string, string> = {}) {
  const u = new URL(path, base);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: `${u.pathname}${u.search}`,
      method,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(body);
  });
}

/**
 * Fills the filesystem of `dir` but for `leave` bytes with one file, which is
 * returned. The server may write meanwhile (its workers run on their own), so
 * the disk may fill before the file has all its bytes: that is full enough.
 */
function fill(dir: string, leave: number, name = 'filler'): string {
  const file = join(dir, name);
  const { bavail, bsize } = statfsSync(dir);
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (let left = Math.max(0, bavail * bsize - leave); left > 0; ) {
      const n = writeSync(fd, chunk, 0, Math.min(left, chunk.length));
      left -= n;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return file;
}

describe('a full disk', () => {
  it('answers 507/503 with Retry-After, removes the refused upload, logs the path and reports degraded until there is room', async (t) => {
    const mount = mkdtempSync(join(tmpdir(), 'berth-full-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=700', 'tmpfs', mount], { encoding: 'utf8' });
    if (mounted.status !== 0) {
      rmSync(mount, { recursive: true, force: true });
      t.skip(`mounting a tmpfs was refused (${(mounted.stderr || mounted.error?.message || '').trim()}): needs root or CAP_SYS_ADMIN`);
      return;
    }
    let berth: Berth | undefined;
    t.after(async () => {
      await berth?.stop(); // before the unmount, which a running server would keep busy
      spawnSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    });
    berth = await startBerth({ dataDir: join(mount, 'data') });
    const host = registryHost(berth);
    const tok = await tokenGet(berth, [`repository:${berth.orgName}/full:pull,push`], basic('_token', cliToken(berth, host).token));
    assert.equal(tok.status, 200, tok.text);
    const token = tok.json.token as string;
    const base = berth.registryUrl as string;
    const name = `${berth.orgName}/full`;
    const health = async () => [(await rest(berth.url, 'GET', '/healthz')).json.status, (await rest(base, 'GET', '/healthz')).json.status];
    // The repo exists before the disk fills (creating it is a database write).
    const small = randomBytes(1000);
    const digestOf = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
    assert.equal((await send(base, 'POST', `/v2/${name}/blobs/uploads/?digest=${digestOf(small)}`, token, small)).status, 201);
    assert.deepEqual(await health(), ['ok', 'ok']);

    const start = await send(base, 'POST', `/v2/${name}/blobs/uploads/`, token);
    assert.equal(start.status, 202, start.body);
    const loc = start.headers.location as string;
    const filler = fill(mount, 256 * 1024);
    const bytes = randomBytes(4 * MiB);
    const refused = await send(base, 'PATCH', loc, token, bytes, { 'content-range': `0-${bytes.length - 1}`, 'content-length': String(bytes.length) });
    assert.equal(refused.status, 507, refused.body);
    assert.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After');
    const body = JSON.parse(refused.body);
    assert.equal(body.errors[0].code, 'UNAVAILABLE');
    assert.match(body.errors[0].message, /out of storage.*upload was removed/);
    assert.deepEqual(readdirSync(join(mount, 'data', 'registry', 'uploads')), [], 'the upload’s files are gone');
    const status = await send(base, 'GET', loc, token);
    assert.equal(status.status, 404, status.body);
    assert.equal(JSON.parse(status.body).errors[0].code, 'BLOB_UPLOAD_UNKNOWN');
    assert.deepEqual(await health(), ['degraded', 'degraded']);
    const logs = await berth.logsMatching(/storage full/);
    assert.ok(logs.includes(join(mount, 'data', 'registry', 'uploads')), `the log names the path:\n${logs}`);
    assert.ok(!logs.includes(token), 'never the token');

    if (!usingPostgres()) {
      // SQLite on the same full disk: an API write (a repo readme, so the WAL must grow) fails with SQLITE_FULL.
      const owner = ownerToken(berth.credentialsFile);
      const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}`, { token: owner });
      const repoUid = repos.json.repos[0].uid as string;
      fill(mount, 0, 'filler-2');
      let answer = { status: 200, text: '', headers: new Headers() };
      for (let i = 0; i < 40 && answer.status === 200; i++) {
        answer = await rest(berth.url, 'PATCH', `/registry/v2/repos/${repoUid}/readme`, { token: owner, body: { content: `${i}`.repeat(512 * 1024) } });
      }
      assert.equal(answer.status, 503, answer.text);
      assert.ok(answer.headers.get('retry-after'), 'Retry-After');
      assert.match(answer.text, /out of storage/);
      assert.deepEqual((await health())[0], 'degraded');
    }

    rmSync(filler);
    rmSync(join(mount, 'filler-2'), { force: true });
    const again = await send(base, 'POST', `/v2/${name}/blobs/uploads/?digest=${digestOf(bytes)}`, token, bytes);
    assert.equal(again.status, 201, again.body);
    assert.deepEqual(await health(), ['ok', 'ok']);
  });

  // SQLite commits concurrent transactions in groups (one COMMIT for several
  // requests, src/store/sqlite-driver.ts). When that COMMIT cannot be written
  // every member must fail: a request answered 200 is on disk after a restart,
  // one answered with an error left nothing.
  it('loses no acknowledged write and keeps no refused one when a shared SQLite COMMIT fails', { skip: usingPostgres() && 'SQLite only' }, async (t) => {
    const mount = mkdtempSync(join(tmpdir(), 'berth-full-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m,mode=700', 'tmpfs', mount], { encoding: 'utf8' });
    if (mounted.status !== 0) {
      rmSync(mount, { recursive: true, force: true });
      t.skip(`mounting a tmpfs was refused (${(mounted.stderr || mounted.error?.message || '').trim()}): needs root or CAP_SYS_ADMIN`);
      return;
    }
    let berth: Berth | undefined;
    t.after(async () => {
      await berth?.stop();
      spawnSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    });
    const dataDir = join(mount, 'data');
    berth = await startBerth({ dataDir });
    let owner = ownerToken(berth.credentialsFile);
    const repoUids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const created = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token: owner, body: { name: `group-${i}` } });
      assert.equal(created.status, 200, created.text);
      repoUids.push(created.json.uid as string);
    }
    const readme = (uid: string) => rest(berth!.url, 'GET', `/registry/v2/repos/${uid}/readme`, { token: owner });
    const before = new Map<string, string>();
    for (const uid of repoUids) before.set(uid, (await readme(uid)).json.content ?? '');

    const filler = fill(mount, 0);
    // Rounds of concurrent writes (each one is 256 KiB, so the WAL must grow) until some are refused.
    const sent = new Map<string, { status: number; content: string }>();
    for (let round = 0; round < 8 && ![...sent.values()].some((a) => a.status !== 200); round++) {
      const answers = await Promise.all(
        repoUids.map(async (uid, i) => {
          const content = `${round}-${i}-`.repeat(64 * 1024).slice(0, 256 * 1024);
          const r = await rest(berth!.url, 'PATCH', `/registry/v2/repos/${uid}/readme`, { token: owner, body: { content } });
          return { uid, status: r.status, content, text: r.text };
        }),
      );
      for (const a of answers) {
        assert.ok(a.status === 200 || a.status === 503, `${a.status} ${a.text.slice(0, 200)}\n${berth!.recentLogs()}`);
        if (a.status === 200 || !sent.has(a.uid)) sent.set(a.uid, { status: a.status, content: a.content });
        if (a.status === 200) before.set(a.uid, a.content); // the newest acknowledged content
      }
    }
    const refused = [...sent.values()].filter((a) => a.status === 503).length;
    assert.ok(refused >= 2, `the full disk refused ${refused} of ${sent.size} concurrent writes`);

    rmSync(filler);
    await berth.stop();
    berth = await startBerth({ dataDir });
    owner = ownerToken(berth.credentialsFile, berth.url); // the restarted server listens on another port
    for (const uid of repoUids) {
      const now = await readme(uid);
      assert.equal(now.status, 200, now.text);
      assert.equal(now.json.content ?? '', before.get(uid), `${uid}: after the restart the readme is the last acknowledged one`);
    }
  });
});
