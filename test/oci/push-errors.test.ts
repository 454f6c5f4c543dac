// What the registry does with bad pushes, over raw HTTP with a registry token:
// a wrong digest, a truncated upload, an out-of-order chunk, an oversize
// manifest, a manifest naming a blob the repo lacks, a token for another
// audience — and a server killed with SIGKILL in the middle of an upload,
// restarted on the same data: nothing half-written is visible, and the client
// resumes from the offset the registry reports and completes the blob. Upload
// status counts only acknowledged bytes, and a blob stored once is never
// replaced by a later upload of the same content.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { rest, ownerToken } from '../harness/api-client.js';
import { dropDatabase, freshDatabase, startBerth, useBerth, type Berth } from '../harness/berth-process.js';
import { basic, cliToken, registryHost, tokenGet } from '../harness/registry-client.js';

const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to the registry; `body` may be a Buffer or undefined. */
function send(base: string, method: string, path: string, token: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Res> {
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method, headers: { authorization: `Bearer ${token}`, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Resolves once the upload's data file in `dataDir` holds more than `size` bytes: the server has written part of a chunk. */
async function uploadFileGrows(dataDir: string, location: string, size: number): Promise<void> {
  const file = join(dataDir, 'registry', 'uploads', location.split('/').pop() as string, 'data');
  for (let i = 0; i < 500; i++) {
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > size) return;
    await sleep(20);
  }
  throw new Error(`${file} never grew past ${size} bytes`);
}

/** A PATCH whose body is sent only in part until `finish` is called. */
function stalledPatch(base: string, location: string, token: string, range: string, total: number, first: Buffer) {
  const u = new URL(location, base);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-range': range, 'content-length': String(total) },
  });
  const response = new Promise<Res>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
  });
  response.catch(() => undefined); // observed by whoever awaits it
  req.write(first);
  return { response, finish: (rest: Buffer) => req.end(rest) };
}

async function pushToken(berth: Berth, repo: string): Promise<string> {
  const host = registryHost(berth);
  const t = await tokenGet(berth, [`repository:${berth.orgName}/${repo}:pull,push,delete`], basic('_token', cliToken(berth, host).token));
  assert.equal(t.status, 200, t.text);
  return t.json.token;
}

describe('bad pushes', () => {
  let berth: Berth;
  let base: string;
  let token: string;
  let name: string;

  useBerth((b) => {
    berth = b;
  });

  before(async () => {
    base = berth.registryUrl as string;
    name = `${berth.orgName}/errs`;
    token = await pushToken(berth, 'errs');
  });

  const startUpload = async (): Promise<string> => {
    const r = await send(base, 'POST', `/v2/${name}/blobs/uploads/`, token);
    assert.equal(r.status, 202, r.body);
    return r.headers.location as string;
  };

  it('refuses a blob whose content has another digest, and stores nothing under either digest', async () => {
    const bytes = randomBytes(500);
    const claimed = sha256(randomBytes(8));
    const r = await send(base, 'POST', `/v2/${name}/blobs/uploads/?digest=${claimed}`, token, bytes);
    assert.equal(r.status, 400, r.body);
    assert.equal(JSON.parse(r.body).errors[0].code, 'DIGEST_INVALID');
    for (const d of [claimed, sha256(bytes)]) assert.equal((await send(base, 'HEAD', `/v2/${name}/blobs/${d}`, token)).status, 404);
  });

  it('keeps a consistent upload after a truncated chunk, from which the client completes the blob', async () => {
    const loc = await startUpload();
    const bytes = randomBytes(200_000);
    const u = new URL(loc, base);
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-length': String(bytes.length) },
      });
      req.on('error', () => resolve());
      req.write(bytes.subarray(0, 70_000), () => setTimeout(() => req.destroy(), 100));
    });
    await sleep(200);
    const status = await send(base, 'GET', loc, token);
    assert.equal(status.status, 204, status.body);
    const received = Number((status.headers.range as string).split('-')[1]) + 1;
    const at = status.headers.range === '0-0' ? 0 : received;
    assert.ok(at === 0 || at === 70_000, `the upload holds a prefix of what was sent (${status.headers.range})`);
    const rest1 = await send(base, 'PATCH', loc, token, bytes.subarray(at), { 'content-range': `${at}-${bytes.length - 1}` });
    assert.equal(rest1.status, 202, rest1.body);
    const done = await send(base, 'PUT', `${loc}?digest=${sha256(bytes)}`, token);
    assert.equal(done.status, 201, done.body);
    const got = await send(base, 'HEAD', `/v2/${name}/blobs/${sha256(bytes)}`, token);
    assert.equal(got.headers['content-length'], String(bytes.length));
  });

  it('reports only acknowledged bytes while a chunk is still arriving, and the whole chunk once it is', async () => {
    const loc = await startUpload();
    const bytes = randomBytes(2 * 1024 * 1024);
    const first = 512 * 1024;
    assert.equal((await send(base, 'PATCH', loc, token, bytes.subarray(0, first), { 'content-range': `0-${first - 1}` })).status, 202);
    const rest = bytes.subarray(first);
    const patch = stalledPatch(base, loc, token, `${first}-${bytes.length - 1}`, rest.length, rest.subarray(0, 700 * 1024));
    await uploadFileGrows(berth.dataDir, loc, first); // the server holds part of the chunk, unacknowledged
    const during = await send(base, 'GET', loc, token);
    assert.equal(during.status, 204, during.body);
    assert.equal(during.headers.range, `0-${first - 1}`, 'the chunk in flight is not counted');
    patch.finish(rest.subarray(700 * 1024));
    const done = await patch.response;
    assert.equal(done.status, 202, done.body);
    assert.equal(done.headers.range, `0-${bytes.length - 1}`);
    assert.equal((await send(base, 'GET', loc, token)).headers.range, `0-${bytes.length - 1}`);
    assert.equal((await send(base, 'PUT', `${loc}?digest=${sha256(bytes)}`, token)).status, 201);
  });

  it('keeps a stored blob as it is when the same content is pushed again, renewing only its time', async () => {
    const bytes = randomBytes(100_000);
    const digest = sha256(bytes);
    assert.equal((await send(base, 'POST', `/v2/${name}/blobs/uploads/?digest=${digest}`, token, bytes)).status, 201);
    const file = join(berth.dataDir, 'registry', 'blobs', 'sha256', digest.slice(7, 9), digest.slice(7));
    const before = statSync(file);
    await sleep(20);
    // Pushed again, in chunks through a session this time: verified, then discarded for the stored blob.
    const loc = await startUpload();
    assert.equal((await send(base, 'PATCH', loc, token, bytes, { 'content-range': `0-${bytes.length - 1}` })).status, 202);
    const again = await send(base, 'PUT', `${loc}?digest=${digest}`, token);
    assert.equal(again.status, 201, again.body);
    const after = statSync(file);
    assert.equal(after.ino, before.ino, 'the stored file was not replaced');
    assert.ok(after.mtimeMs > before.mtimeMs, 'its time is renewed (gc grace)');
    assert.equal((await send(base, 'GET', loc, token)).status, 404, 'the upload is gone');
    const wrong = await startUpload();
    const bad = await send(base, 'PUT', `${wrong}?digest=${digest}`, token, randomBytes(100_000));
    assert.equal(bad.status, 400, 'other content under a stored digest is still refused');
    assert.equal(statSync(file).ino, before.ino);
  });

  it('answers an out-of-order chunk 416 with the range it holds, and changes nothing', async () => {
    const loc = await startUpload();
    const r = await send(base, 'PATCH', loc, token, randomBytes(10), { 'content-range': '5-14' });
    assert.equal(r.status, 416, r.body);
    assert.equal(JSON.parse(r.body).errors[0].code, 'RANGE_INVALID');
    assert.equal(r.headers.range, '0-0');
    const ok = await send(base, 'PATCH', loc, token, randomBytes(10), { 'content-range': '0-9' });
    assert.equal(ok.status, 202);
    assert.equal(ok.headers.range, '0-9');
  });

  it('refuses a manifest over 4 MiB with 413, and one naming a blob the repo lacks with MANIFEST_BLOB_UNKNOWN', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 0x20);
    const r = await send(base, 'PUT', `/v2/${name}/manifests/big`, token, big, { 'content-type': 'application/vnd.oci.image.manifest.v1+json' });
    assert.equal(r.status, 413);
    assert.equal(JSON.parse(r.body).errors[0].code, 'SIZE_INVALID');
    const missing = { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(randomBytes(4)), size: 4 };
    const manifest = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: missing, layers: [] }));
    const m = await send(base, 'PUT', `/v2/${name}/manifests/v1`, token, manifest, { 'content-type': 'application/vnd.oci.image.manifest.v1+json' });
    assert.equal(m.status, 400, m.body);
    assert.equal(JSON.parse(m.body).errors[0].code, 'MANIFEST_BLOB_UNKNOWN');
    assert.equal((await send(base, 'GET', `/v2/${name}/manifests/v1`, token)).status, 404);
  });

  it('refuses a token for the API audience with 403 DENIED, and one for another repo with 401', async () => {
    const apiToken = ownerToken(berth.credentialsFile);
    const r = await send(base, 'GET', `/v2/${name}/tags/list`, apiToken);
    assert.equal(r.status, 403);
    assert.equal(JSON.parse(r.body).errors[0].code, 'DENIED');
    const other = await pushToken(berth, 'other');
    const o = await send(base, 'POST', `/v2/${name}/blobs/uploads/`, other);
    assert.equal(o.status, 401);
    assert.match(o.headers['www-authenticate'] as string, /scope="repository:[^"]+\/errs:push"/);
  });
});

describe('a server killed in the middle of an upload', () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let berth: Berth | undefined;
  const extraArgs = ['--registry-public-url', 'http://registry.test:5999'];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'berth-kill-'));
    databaseUrl = await freshDatabase();
  });
  after(async () => {
    await berth?.stop();
    await dropDatabase(databaseUrl);
  });

  it('shows no partial blob after a restart, and the client resumes from the reported offset', async () => {
    berth = await startBerth({ dataDir, databaseUrl, extraArgs });
    let token = await pushToken(berth, 'crash');
    const name = `${berth.orgName}/crash`;
    const bytes = randomBytes(3 * 1024 * 1024);
    const first = 1024 * 1024;
    const start = await send(berth.registryUrl as string, 'POST', `/v2/${name}/blobs/uploads/`, token);
    const loc = start.headers.location as string;
    const p1 = await send(berth.registryUrl as string, 'PATCH', loc, token, bytes.subarray(0, first), { 'content-range': `0-${first - 1}` });
    assert.equal(p1.status, 202);
    // The second chunk is half sent when the server dies.
    const u = new URL(loc, berth.registryUrl);
    const inFlight = new Promise<void>((resolve) => {
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-range': `${first}-${bytes.length - 1}`, 'content-length': String(bytes.length - first) },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(bytes.subarray(first, first + 512 * 1024));
    });
    await uploadFileGrows(dataDir, loc, first); // part of the chunk reached the file, never acknowledged
    await berth.stop('SIGKILL');
    await inFlight;

    berth = await startBerth({ dataDir, databaseUrl, extraArgs });
    const base = berth.registryUrl as string;
    token = await pushToken(berth, 'crash'); // the API (the issuer) came back on another port
    assert.equal((await send(base, 'HEAD', `/v2/${name}/blobs/${sha256(bytes)}`, token)).status, 404, 'nothing committed');
    const status = await send(base, 'GET', loc, token);
    assert.equal(status.status, 204, status.body);
    const at = Number((status.headers.range as string).split('-')[1]) + 1;
    assert.equal(at, first, `the upload resumes after the acknowledged chunk (${status.headers.range})`);
    const rest2 = await send(base, 'PATCH', loc, token, bytes.subarray(at), { 'content-range': `${at}-${bytes.length - 1}` });
    assert.equal(rest2.status, 202, rest2.body);
    const done = await send(base, 'PUT', `${loc}?digest=${sha256(bytes)}`, token);
    assert.equal(done.status, 201, done.body);
    const got = await new Promise<Buffer>((resolve, reject) => {
      const g = new URL(`/v2/${name}/blobs/${sha256(bytes)}`, base);
      http
        .get({ host: g.hostname, port: g.port, path: g.pathname, headers: { authorization: `Bearer ${token}` } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve(Buffer.concat(parts)));
        })
        .on('error', reject);
    });
    assert.ok(got.equals(bytes), 'the blob is exactly what was sent');
    const owner = ownerToken(berth.credentialsFile, berth.url);
    const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}`, { token: owner });
    assert.ok(repos.json.repos.some((r: { name: string }) => r.name === 'crash'));
  });
});
