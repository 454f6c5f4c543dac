// Where a subscription may deliver, and its signing secret. A sink is an
// absolute https URL; plain http only for loopback hosts on a server run with
// --allow-insecure-sinks; metadata, link-local, unspecified and multicast
// addresses never, private and loopback ones only with the flag. The
// Standard Webhooks secret is checked, sealed at rest with the secrets key
// when the server has one, and never returned.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SubscriptionsService } from '../../src/gen/berth/events/v2/subscriptions_pb.js';
import { grpcClient, ownerToken, rest } from '../harness/api-client.js';
import { startBerth, useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;

/** Sinks refused whatever the server allows. */
const ALWAYS_REFUSED = [
  'https://169.254.169.254/latest/meta-data',
  'https://[fd00:ec2::254]/',
  'https://[::ffff:169.254.169.254]/',
  'https://169.254.10.1/',
  'https://[fe80::1]/',
  'https://0.0.0.0/',
  'https://0/',
  'https://[::]/',
  'https://224.0.0.1/',
  'https://[ff02::1]/',
  // forms an earlier check missed: IPv4-translated, local-use NAT64, Teredo, IETF protocol, discard-only, documentation
  'https://[::ffff:0:a9fe:a9fe]/',
  'https://[::ffff:0:10.0.0.1]/',
  'https://[64:ff9b:1::a9fe:a9fe]/',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'https://192.0.0.192/',
  'https://[100::1]/',
  'https://192.0.2.1/',
  'https://198.51.100.7/',
  'https://203.0.113.9/',
  'https://[2001:db8::1]/',
  'https://user:pw@hooks.example.com/',
  'https://token@hooks.example.com/',
  'https://hooks.example.com/#frag',
  'ftp://hooks.example.com/',
  'hooks.example.com/no-scheme',
  '/relative',
  'https://hooks.example.com/ space',
  `https://hooks.example.com/${'x'.repeat(2049 - 'https://hooks.example.com/'.length)}`,
];

/** Sinks refused unless the server runs with --allow-insecure-sinks. */
const INSECURE = [
  'http://localhost:8080/hook',
  'http://127.0.0.1/hook',
  'http://[::1]:9000/',
  'https://10.1.2.3/',
  'https://192.168.1.1/',
  'https://[fc00::1]/',
];

// biome-ignore lint/suspicious/noExplicitAny: error bodies are asserted on as loose JSON
const violations = (json: any): Array<{ field: string; description: string }> =>
  json.details?.find((d: { '@type': string }) => d['@type'].endsWith('BadRequest'))?.fieldViolations ?? [];

describe('subscription sinks and signing secrets (default server)', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('accepts https sinks on public hosts, as given', async () => {
    for (const sink of ['https://hooks.example.com/berth', 'https://hooks.example.com:8443/a/b?c=d', 'https://8.8.8.8/x', 'https://[2001:4860::8888]/']) {
      const r = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink } });
      assert.equal(r.status, 200, `${sink}: ${r.text}`);
      assert.equal(r.json.sink, sink);
    }
    const max = `https://hooks.example.com/${'x'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
    assert.equal((await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink: max } })).status, 200);
  });

  it('refuses plain http, private, loopback, metadata, link-local and malformed sinks, naming the field, storing nothing', async () => {
    const before = (await sqlQuery(berth, 'select count(*) as n from event_subscriptions'))[0].n;
    for (const sink of [...ALWAYS_REFUSED, ...INSECURE, 'http://hooks.example.com/', 'https://localhost/']) {
      const r = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink } });
      assert.equal(r.status, 400, `${sink}: ${r.text}`);
      assert.deepEqual(
        violations(r.json).map((v) => v.field),
        ['subscription.sink'],
        sink,
      );
    }
    const http = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink: 'http://localhost/' } });
    assert.match(violations(http.json)[0].description, /https.*--allow-insecure-sinks/);
    const meta = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink: 'https://169.254.169.254/' } });
    assert.match(violations(meta.json)[0].description, /metadata/);
    assert.equal((await sqlQuery(berth, 'select count(*) as n from event_subscriptions'))[0].n, before);
  });

  it('checks the signing secret format, says signed, and never returns the secret', async () => {
    for (const secret of [secretOf(24), secretOf(32), secretOf(64), secretOf(32).replace(/=+$/, '')]) {
      const r = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, {
        token,
        body: { sink: 'https://signed.example.com/', signingSecret: secret },
      });
      assert.equal(r.status, 200, `${secret}: ${r.text}`);
      assert.equal(r.json.signed, true);
      assert.ok(!r.text.includes(secret.slice(6)), 'the secret is not in the response');
      const got = await rest(berth.url, 'GET', `/events/v2/subscriptions/${r.json.uid}`, { token });
      assert.equal(got.json.signed, true);
      assert.ok(!got.text.includes(secret.slice(6)));
      const listed = await rest(berth.url, 'GET', `/events/v2/subscriptions?uidp.ids=${r.json.uid}`, { token });
      assert.equal(listed.json.subscriptions[0].signed, true);
      assert.ok(!listed.text.includes(secret.slice(6)));
      const [event] = await sqlQuery(berth, 'select body from event_outbox where subject = $1', [r.json.uid]);
      assert.ok(!String(event.body).includes(secret.slice(6)), 'nor in the event');
      // Without a secrets key it is stored as given (the worker signs with it).
      const [row] = await sqlQuery(berth, 'select signing_secret from event_subscriptions where uid = $1', [r.json.uid]);
      assert.equal(row.signing_secret, secret);
    }
    const grpc = grpcClient(SubscriptionsService, berth.url, token);
    const secret = secretOf(32);
    const s = await grpc.createSubscription({ parent: berth.orgUid, subscription: { sink: 'https://signed.example.com/', signingSecret: secret } });
    assert.equal(s.signed, true);
    assert.equal(s.signingSecret, '');
    assert.equal((await grpc.getSubscription({ uid: s.uid })).signingSecret, '');

    for (const bad of [
      'whsec_',
      randomBytes(32).toString('base64'),
      `whsec_${randomBytes(16).toString('base64')}`,
      `whsec_${randomBytes(65).toString('base64')}`,
      `whsec_${randomBytes(32).toString('base64url').replace(/[-_]/g, '')}!`,
      `whsec_${randomBytes(32).toString('base64')}==`,
      `WHSEC_${randomBytes(32).toString('base64')}`,
    ]) {
      const r = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, {
        token,
        body: { sink: 'https://signed.example.com/', signingSecret: bad },
      });
      assert.equal(r.status, 400, `${bad}: ${r.text}`);
      assert.deepEqual(
        violations(r.json).map((v) => v.field),
        ['subscription.signing_secret'],
      );
      assert.ok(!r.text.includes(bad.slice(6, 20)) || bad.length < 12, 'the refused secret is not echoed');
    }
  });
});

describe('subscription sinks and signing secrets (--allow-insecure-sinks, --secrets-key-file)', () => {
  let berth: Berth;
  let token: string;
  let keyDir: string;
  before(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'berth-sinks-'));
    const keyFile = join(keyDir, 'secrets.key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    berth = await startBerth({ extraArgs: ['--allow-insecure-sinks', '--secrets-key-file', keyFile] });
    token = ownerToken(berth.credentialsFile);
  });
  after(async () => {
    await berth.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('accepts plain http for loopback hosts and private addresses, nothing else that is refused', async () => {
    for (const sink of INSECURE) {
      const r = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink } });
      assert.equal(r.status, 200, `${sink}: ${r.text}`);
    }
    for (const sink of [...ALWAYS_REFUSED, 'http://hooks.example.com/', 'http://10.1.2.3/', 'http://[fc00::1]/']) {
      const r = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink } });
      assert.equal(r.status, 400, `${sink}: ${r.text}`);
      assert.deepEqual(
        violations(r.json).map((v) => v.field),
        ['subscription.sink'],
        sink,
      );
    }
    const v1 = await rest(berth.url, 'POST', `/events/v1/subscriptions/${berth.orgUid}`, { token, body: { sink: 'http://127.0.0.1:9/' } });
    assert.equal(v1.status, 200, v1.text);
  });

  it('stores the signing secret sealed with the secrets key', async () => {
    const secret = secretOf(32);
    const r = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, {
      token,
      body: { sink: 'https://signed.example.com/', signingSecret: secret },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.signed, true);
    const [row] = await sqlQuery(berth, 'select signing_secret from event_subscriptions where uid = $1', [r.json.uid]);
    const stored = String(row.signing_secret);
    assert.match(stored, /^sealed:v1:/);
    assert.ok(!stored.includes(secret.slice(6)));
    const unsigned = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, { token, body: { sink: 'https://plain.example.com/' } });
    assert.equal(unsigned.json.signed, false);
    const [plain] = await sqlQuery(berth, 'select signing_secret from event_subscriptions where uid = $1', [unsigned.json.uid]);
    assert.equal(plain.signing_secret, '');
  });
});
