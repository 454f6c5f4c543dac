// TLS on both listeners with a CA made for the run: HTTPS for REST, gRPC over
// HTTP/2 chosen by ALPN, a skopeo push that trusts the CA (no
// --tls-verify=false), and SIGHUP: a new certificate for new connections
// while an open one keeps working, and a bad new pair that changes nothing.
// Certificates that cannot be used stop the start with a message naming them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { GroupsService } from '../../src/gen/berth/iam/v2/groups_pb.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { writeImage } from '../harness/oci-layout.js';
import { skopeo, skopeoMissing } from '../harness/skopeo.js';
import { makeTestCa, type TestCa } from '../harness/test-ca.js';

/** The common name of the certificate a new TLS connection to `url` is served. */
function servedName(url: string, ca: string, alpn: string[] = ['http/1.1']): Promise<{ cn: string; alpn: string | false }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: u.hostname, port: Number(u.port), ca, servername: 'localhost', ALPNProtocols: alpn }, () => {
      const cn = s.getPeerCertificate().subject.CN;
      resolve({ cn: String(cn), alpn: s.alpnProtocol ?? false });
      s.end();
    });
    s.on('error', reject);
    s.setTimeout(10_000, () => s.destroy(new Error(`no TLS handshake with ${url} in 10 s`)));
  });
}

function httpsGet(url: string, ca: string, token?: string): Promise<{ status: number; body: string; cn: string }> {
  return new Promise((resolve, reject) => {
    // A connection of its own (no agent): what a new client is served.
    const req = https.get(url, { ca, agent: false, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      const cn = String((res.socket as tls.TLSSocket).getPeerCertificate().subject.CN);
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, cn }));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url} in 10 s`)));
  });
}

/** One GET on an open HTTP/2 session: its status. */
function sessionGet(session: http2.ClientHttp2Session, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': path });
    req.on('response', (h) => resolve(Number(h[':status'])));
    req.on('error', reject);
    req.setTimeout(10_000, () => req.close());
    req.on('close', () => reject(new Error(`no answer to ${path} on the open session`)));
    req.resume();
  });
}

/** Waits (bounded) until `check` holds: a signal's effect is seen by the next connection or log line, not at once. */
async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`${what} within 10 s`);
}

describe('TLS on both listeners', () => {
  let ca: TestCa;
  let berth: Berth;
  let token: string;
  // The files the server was started with; a reload rereads these paths.
  let served: { certFile: string; keyFile: string };
  let second: { certFile: string; keyFile: string };

  before(async () => {
    ca = makeTestCa();
    const first = ca.issue('berth-first');
    second = ca.issue('berth-second');
    const dir = mkdtempSync(join(tmpdir(), 'berth-tls-served-'));
    served = { certFile: join(dir, 'server.crt'), keyFile: join(dir, 'server.key') };
    copyFileSync(first.certFile, served.certFile);
    copyFileSync(first.keyFile, served.keyFile);
    berth = await startBerth({
      extraArgs: ['--tls-cert', served.certFile, '--tls-key', served.keyFile, '--registry-tls-cert', first.certFile, '--registry-tls-key', first.keyFile],
    });
    const r = spawnSync(process.execPath, [CLI, 'auth', 'token', '--credentials', berth.credentialsFile, '--api', berth.url], {
      encoding: 'utf8',
      env: { ...process.env, NODE_EXTRA_CA_CERTS: ca.caFile },
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    token = r.stdout.trim();
  });
  after(async () => {
    await berth?.stop();
  });

  it('serves the API over HTTPS, announces https URLs, and answers no cleartext request', async () => {
    assert.match(berth.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(berth.registryPublicUrl ?? '', /^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await httpsGet(`${berth.url}/iam/v2/groups/${berth.orgUid}`, ca.caPem, token);
    assert.equal(r.status, 200, r.body);
    assert.equal(JSON.parse(r.body).uid, berth.orgUid);
    assert.equal(r.cn, 'berth-first');
    await assert.rejects(fetch(`${berth.url.replace('https:', 'http:')}/healthz`, { signal: AbortSignal.timeout(5000) }));
  });

  it('answers gRPC over TLS, HTTP/2 chosen by ALPN', async () => {
    assert.deepEqual(await servedName(berth.url, ca.caPem, ['h2', 'http/1.1']), { cn: 'berth-first', alpn: 'h2' });
    assert.deepEqual(await servedName(berth.url, ca.caPem, ['http/1.1']), { cn: 'berth-first', alpn: 'http/1.1' });
    const transport = createGrpcTransport({
      baseUrl: berth.url,
      nodeOptions: { ca: ca.caPem },
      interceptors: [
        (next) => async (req) => {
          req.header.set('authorization', `Bearer ${token}`);
          return next(req);
        },
      ],
    });
    const group = await createClient(GroupsService, transport).getGroup({ uid: berth.orgUid });
    assert.equal(group.uid, berth.orgUid);
  });

  it('takes a skopeo push over TLS trusting the test CA', { skip: skopeoMissing }, async () => {
    assert.deepEqual(await servedName(berth.registryUrl as string, ca.caPem), { cn: 'berth-first', alpn: 'http/1.1' });
    const host = new URL(berth.registryPublicUrl as string).host;
    const r = spawnSync(process.execPath, [CLI, 'auth', 'token', '--credentials', berth.credentialsFile, '--api', berth.url, '--audience', host], {
      encoding: 'utf8',
      env: { ...process.env, NODE_EXTRA_CA_CERTS: ca.caFile },
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    // skopeo trusts every *.crt of a --dest-cert-dir as a CA.
    const certDir = mkdtempSync(join(tmpdir(), 'berth-skopeo-certs-'));
    copyFileSync(ca.caFile, join(certDir, 'ca.crt'));
    const layout = mkdtempSync(join(tmpdir(), 'berth-tls-img-'));
    mkdirSync(layout, { recursive: true });
    const image = await writeImage(layout, 'v1', { layers: [2000] });
    const dest = `docker://${host}/${berth.orgName}/tls/app:v1`;
    const pushed = await skopeo([
      'copy',
      '--preserve-digests',
      '--dest-cert-dir',
      certDir,
      '--dest-creds',
      `_token:${r.stdout.trim()}`,
      `oci:${layout}:v1`,
      dest,
    ]);
    assert.equal(pushed.code, 0, pushed.stderr);
    const inspect = await skopeo(['inspect', '--format', '{{.Digest}}', '--cert-dir', certDir, '--creds', `_token:${r.stdout.trim()}`, dest]);
    assert.equal(inspect.stdout.trim(), image.manifest.digest, inspect.stderr);
    // Without the CA the same client refuses the registry's certificate.
    const untrusted = await skopeo(['inspect', '--creds', `_token:${r.stdout.trim()}`, dest]);
    assert.notEqual(untrusted.code, 0);
    assert.match(untrusted.stderr, /certificate/i);
  });

  it('serves a new certificate to new connections after SIGHUP while an open connection keeps working, and keeps it when the next pair is bad', async () => {
    const session = http2.connect(berth.url, { ca: ca.caPem });
    try {
      assert.equal(await sessionGet(session, '/healthz'), 200);
      copyFileSync(second.certFile, served.certFile);
      copyFileSync(second.keyFile, served.keyFile);
      berth.process.kill('SIGHUP');
      await eventually(async () => (await servedName(berth.url, ca.caPem)).cn === 'berth-second', 'the new certificate is served');
      // The session opened before the reload still answers, on its first certificate.
      assert.equal(await sessionGet(session, '/healthz'), 200);
      assert.equal((session.socket as tls.TLSSocket).getPeerCertificate().subject.CN, 'berth-first');
      assert.equal(berth.process.exitCode, null);

      // A key that does not match: the error is logged, the served certificate stays.
      copyFileSync(ca.issue('berth-third').keyFile, served.keyFile);
      berth.process.kill('SIGHUP');
      assert.match(await berth.logsMatching(/TLS certificate reload failed/), /does not match the certificate/);
      const after = await httpsGet(`${berth.url}/healthz`, ca.caPem);
      assert.deepEqual([after.status, after.cn], [200, 'berth-second']);
    } finally {
      session.close();
    }
  });

  it('refuses to start with an unreadable key or a key that does not match its certificate, naming the flag', async () => {
    const other = ca.issue('berth-other');
    const data = mkdtempSync(join(tmpdir(), 'berth-tls-bad-'));
    const serve = (extra: string[]) => berthCli(['serve', '--listen', '127.0.0.1:0', '--registry-listen', 'off', '--data', data, ...extra]);
    const [missing, mismatched, half] = await Promise.all([
      serve(['--tls-cert', other.certFile, '--tls-key', join(data, 'absent.key')]),
      serve(['--tls-cert', other.certFile, '--tls-key', second.keyFile]),
      serve(['--tls-cert', other.certFile]),
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /--tls-key: cannot read .*absent\.key: ENOENT/);
    assert.equal(mismatched.code, 1);
    assert.match(mismatched.stderr, /--tls-key: the key in .* does not match the certificate in .*berth-other\.crt/);
    assert.equal(half.code, 1);
    assert.match(half.stderr, /--tls-cert and --tls-key go together/);
  });
});
