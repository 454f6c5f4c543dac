// /metrics and the access log, seen from outside: requests on both listeners
// move the counters and histograms under their route templates (never a raw
// path), the registry's bytes, blob store and database metrics move with a
// push, and every request writes one JSON line on stdout with its route,
// status, duration, bytes, caller and request id — never the token or the
// query string. X-Request-Id is echoed when valid and replaced when not.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http2 from 'node:http2';
import { describe, it } from 'node:test';
import { GroupsService } from '../../src/gen/berth/iam/v2/groups_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { grpcClient, rest } from '../harness/api-client.js';
import { cliToken, registryHost } from '../harness/registry-client.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The value of the sample `name{labels}` (labels in the order prom-client writes them), or 0 when absent. */
function sample(text: string, name: string, labels = ''): number {
  const key = labels === '' ? `${name} ` : `${name}{${labels}} `;
  const line = text.split('\n').find((l) => l.startsWith(key));
  return line === undefined ? 0 : Number(line.slice(key.length));
}

async function scrape(base: string): Promise<string> {
  const r = await rest(base, 'GET', '/metrics');
  assert.equal(r.status, 200, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return r.text;
}

describe('metrics and the access log', () => {
  let berth: Berth;
  let token: string;
  const stdout: string[] = [];
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
      let partial = '';
      b.process.stdout!.on('data', (c: Buffer) => {
        const lines = (partial + c.toString()).split('\n');
        partial = lines.pop() ?? '';
        stdout.push(...lines);
      });
    },
    { extraArgs: ['--log-level', 'info'] },
  );
  const logLine = async (requestId: string) => {
    for (let i = 0; i < 50; i++) {
      const line = stdout.find((l) => l.includes(`"requestId":"${requestId}"`));
      if (line) return JSON.parse(line) as Record<string, unknown>;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`no access log line for ${requestId}`);
  };

  it('counts API requests by route template and status on REST and gRPC, with no raw path in any label', async () => {
    const route = 'listener="api",method="GET",route="/iam/v2/groups/{uid=**}",status="200"';
    const before = await scrape(berth.url);
    for (let i = 0; i < 3; i++) assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).status, 200);
    assert.equal((await rest(berth.url, 'GET', '/iam/v2/nosuchthing/raw-path-42', { token })).status, 404);
    await grpcClient(GroupsService, berth.url, token).getGroup({ uid: berth.orgUid });
    const after = await scrape(berth.url);
    assert.equal(sample(after, 'berth_http_requests_total', route) - sample(before, 'berth_http_requests_total', route), 3);
    assert.equal(sample(after, 'berth_http_request_duration_seconds_count', route) - sample(before, 'berth_http_request_duration_seconds_count', route), 3);
    assert.ok(sample(after, 'berth_http_request_duration_seconds_bucket', `le="+Inf",${route}`) >= 3);
    const buckets = after
      .split('\n')
      .filter((l) => l.startsWith('berth_http_request_duration_seconds_bucket{') && l.includes(route))
      .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
    assert.equal(buckets.length, 16, 'every bound and +Inf');
    assert.ok(
      buckets.every((v, i) => i === 0 || v >= buckets[i - 1]),
      'the buckets are cumulative',
    );
    assert.equal(buckets.at(-1), sample(after, 'berth_http_request_duration_seconds_count', route));
    assert.ok(sample(after, 'berth_http_request_duration_seconds_sum', route) > 0);
    assert.ok(sample(after, 'berth_http_requests_total', 'listener="api",method="POST",route="/berth.iam.v2.GroupsService/GetGroup",status="200"') >= 1);
    assert.ok(sample(after, 'berth_http_requests_total', 'listener="api",method="GET",route="unmatched",status="404"') >= 1);
    assert.ok(!after.includes('raw-path-42'), 'an unmatched path is no label');
    assert.ok(!after.includes(berth.orgUid), 'no uid is a label');
    // The token exchange of the owner token, the database and the process.
    assert.ok(sample(after, 'berth_token_exchanges_total', 'endpoint="sts_exchange",outcome="issued"') >= 1);
    // Each REST GET reads its group outside a transaction (SQLite's direct reads, PostgreSQL's pooled reads): timed as a select.
    const selects = 'operation="select",outcome="ok"';
    assert.ok(sample(after, 'berth_db_query_duration_seconds_count', selects) - sample(before, 'berth_db_query_duration_seconds_count', selects) >= 3);
    assert.ok(sample(after, 'berth_db_waiting') >= 0 && after.includes('berth_db_waiting '));
    assert.match(after, /^berth_event_deliveries\{state="pending"\} \d+$/m);
    assert.match(after, /^berth_scan_jobs\{state="pending"\} \d+$/m);
    assert.match(after, /^process_cpu_user_seconds_total \d/m);
  });

  it('counts a registry push: route templates, bytes in and out, blob store operations, no upload left in progress', async () => {
    const registryToken = cliToken(berth, registryHost(berth)).token;
    const auth = { authorization: `Bearer ${registryToken}` };
    const name = `${berth.orgName}/metrics-probe`;
    const blob = Buffer.alloc(64 * 1024, 7);
    const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
    const before = await scrape(berth.registryUrl as string);
    const started = await fetch(`${berth.registryUrl}/v2/${name}/blobs/uploads/`, { method: 'POST', headers: auth });
    assert.equal(started.status, 202, await started.text());
    const location = new URL(started.headers.get('location') as string, berth.registryUrl);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: blob });
    assert.equal(put.status, 201, await put.text());
    const read = await fetch(`${berth.registryUrl}/v2/${name}/blobs/${digest}`, { headers: { ...auth, 'x-request-id': 'registry-read-1' } });
    assert.equal(Buffer.from(await read.arrayBuffer()).length, blob.length);
    const line = await logLine('registry-read-1');
    assert.deepEqual([line.listener, line.route, line.caller], ['registry', '/v2/{name}/blobs/{digest}', berth.ownerIdentity]);
    const after = await scrape(berth.registryUrl as string);
    const moved = (n: string, l = '') => sample(after, n, l) - sample(before, n, l);
    assert.equal(moved('berth_http_requests_total', 'listener="registry",method="POST",route="/v2/{name}/blobs/uploads/",status="202"'), 1);
    assert.equal(moved('berth_http_requests_total', 'listener="registry",method="PUT",route="/v2/{name}/blobs/uploads/{id}",status="201"'), 1);
    assert.equal(moved('berth_http_requests_total', 'listener="registry",method="GET",route="/v2/{name}/blobs/{digest}",status="200"'), 1);
    assert.ok(moved('berth_registry_received_bytes_total') >= blob.length);
    assert.ok(moved('berth_registry_sent_bytes_total') >= blob.length);
    assert.equal(moved('berth_blob_store_operation_duration_seconds_count', 'operation="commit",outcome="ok"'), 1);
    assert.equal(sample(after, 'berth_registry_uploads_in_progress'), 0);
    assert.ok(!after.includes('metrics-probe') && !after.includes(digest.slice(7)), 'no repo name or digest is a label');
    // The API listener serves the same registry of metrics.
    assert.ok(sample(await scrape(berth.url), 'berth_blob_store_operation_duration_seconds_count', 'operation="commit",outcome="ok"') >= 1);
  });

  it('writes one JSON access log line per request, with its caller and request id, never the token or the query', async () => {
    const id = 'req-42.abc:def';
    const r = await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}?secret_param=hunter2`, { token, headers: { 'x-request-id': id } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-request-id'), id);
    const line = await logLine(id);
    assert.deepEqual(
      { ...line, durationMs: typeof line.durationMs, bytes: typeof line.bytes, time: typeof line.time },
      {
        ...line,
        level: 30,
        msg: 'request',
        listener: 'api',
        method: 'GET',
        route: '/iam/v2/groups/{uid=**}',
        status: 200,
        caller: berth.ownerIdentity,
        requestId: id,
        durationMs: 'number',
        bytes: 'number',
        time: 'number',
      },
    );
    assert.ok((line.bytes as number) >= r.text.length);
    const all = stdout.join('\n');
    assert.ok(!all.includes(token) && !all.includes(token.split('.')[2]), 'the token is never logged');
    assert.ok(!all.includes('hunter2'), 'the query string is never logged');
    for (const l of stdout) assert.doesNotThrow(() => JSON.parse(l), `stdout holds only JSON lines: ${l.slice(0, 200)}`);
  });

  it('returns the request id of a gRPC call over HTTP/2 and logs it', async () => {
    const session = http2.connect(berth.url);
    try {
      const call = session.request({
        ':method': 'POST',
        ':path': '/berth.iam.v2.GroupsService/GetGroup',
        'content-type': 'application/grpc',
        te: 'trailers',
        authorization: `Bearer ${token}`,
        'x-request-id': 'h2-call-7',
      });
      // One GetGroupRequest { uid (1) = the organization }, in a gRPC frame.
      const uid = Buffer.from(berth.orgUid);
      const message = Buffer.concat([Buffer.from([0x0a, uid.length]), uid]);
      const frame = Buffer.alloc(5);
      frame.writeUInt32BE(message.length, 1);
      call.end(Buffer.concat([frame, message]));
      const [headers] = (await once(call, 'response')) as [http2.IncomingHttpHeaders];
      call.resume();
      await once(call, 'end');
      assert.equal(headers[':status'], 200);
      assert.equal(headers['x-request-id'], 'h2-call-7');
      const line = await logLine('h2-call-7');
      assert.deepEqual([line.route, line.caller], ['/berth.iam.v2.GroupsService/GetGroup', berth.ownerIdentity]);
    } finally {
      session.close();
    }
  });

  it('replaces an X-Request-Id that is too long or holds other characters with a new one, on both listeners', async () => {
    for (const [base, path] of [
      [berth.url, '/healthz'],
      [berth.registryUrl as string, '/v2/'],
    ]) {
      for (const bad of ['has space', 'x'.repeat(129), '"quoted"', 'new\\nline']) {
        const r = await rest(base, 'GET', path, { headers: { 'x-request-id': bad } });
        const given = r.headers.get('x-request-id') ?? '';
        assert.match(given, UUID, `${base}${path} with ${JSON.stringify(bad)}`);
        const line = await logLine(given);
        assert.equal(line.requestId, given);
      }
      const r = await rest(base, 'GET', path);
      assert.match(r.headers.get('x-request-id') ?? '', UUID, 'generated when absent');
      const next = await rest(base, 'GET', path);
      assert.notEqual(next.headers.get('x-request-id'), r.headers.get('x-request-id'), 'a new id for each request');
      const kept = await rest(base, 'GET', path, { headers: { 'x-request-id': 'A'.repeat(128) } });
      assert.equal(kept.headers.get('x-request-id'), 'A'.repeat(128));
    }
    const registryLine = await logLine('A'.repeat(128));
    assert.ok(['api', 'registry'].includes(registryLine.listener as string));
  });
});
