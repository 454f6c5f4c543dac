// Bad input gets a structured error and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { grpcClient, ownerToken, rest } from '../harness/api-client.js';
import { Code, ConnectError } from '@connectrpc/connect';
import { ReposService } from '../../src/gen/berth/registry/v2/repos_pb.js';
import { AuditService } from '../../src/gen/berth/audit/v2/audit_pb.js';

describe('bad input', () => {
  let berth: Berth;
  let token: string;
  let repoUid: string;
  before(async () => {
    berth = await startBerth();
    token = ownerToken(berth.credentialsFile);
    const r = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'stable', description: 'before' } });
    repoUid = r.json.uid;
  });
  after(async () => {
    await berth.stop();
  });

  async function unchanged() {
    const r = await rest(berth.url, 'GET', `/registry/v2/repos/${repoUid}`, { token });
    assert.equal(r.json.description, 'before');
    const all = await rest(berth.url, 'GET', '/registry/v2/repos', { token });
    assert.equal(all.json.totalCount, '1');
  }

  function assertInvalid(r: { status: number; json: { code: number; message: string; details: Array<{ '@type': string; reason?: string }> } }) {
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 3);
    assert.match(r.json.message, /^Invalid argument: /);
    assert.ok(r.json.details.some((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo' && d.reason === 'INVALID_ARGUMENT'));
  }

  it('malformed JSON', async () => {
    assertInvalid(await rest(berth.url, 'PATCH', `/registry/v2/repos/${repoUid}`, { token, rawBody: '{"description": ' }));
    assertInvalid(await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, rawBody: '[1,2]' }));
    await unchanged();
  });

  it('wrong types', async () => {
    assertInvalid(await rest(berth.url, 'PATCH', `/registry/v2/repos/${repoUid}`, { token, body: { description: 42 } }));
    assertInvalid(await rest(berth.url, 'GET', '/registry/v2/repos?page_size=ten', { token }));
    await unchanged();
  });

  it('invalid uids', async () => {
    assertInvalid(await rest(berth.url, 'GET', '/registry/v2/repos/not-a-uid', { token }));
    assertInvalid(await rest(berth.url, 'PATCH', '/registry/v2/repos/ABC', { token, body: { description: 'x' } }));
    assertInvalid(await rest(berth.url, 'GET', '/registry/v2/repos?uidp.descendants_of=zzz', { token }));
    await unchanged();
  });

  it('unknown update mask paths', async () => {
    const r = await rest(berth.url, 'PATCH', `/registry/v2/repos/${repoUid}?updateMask=colour`, { token, body: { description: 'x' } });
    assertInvalid(r);
    assert.match(r.json.message, /update_mask/);
    await unchanged();
  });

  it('oversize bodies', async () => {
    const r = await rest(berth.url, 'PATCH', `/registry/v2/repos/${repoUid}`, { token, body: { description: 'x'.repeat(3 * 1024 * 1024) } });
    assert.ok(r.status >= 400 && r.status < 500, `status ${r.status}`);
    assert.equal(typeof r.json?.code, 'number');
    await unchanged();
  });

  it('unknown routes and methods', async () => {
    const r = await rest(berth.url, 'GET', '/registry/v2/nothing-here', { token });
    assert.equal(r.status, 404);
    assert.equal(r.json.code, 5);
    const m = await rest(berth.url, 'PUT', `/registry/v2/repos/${repoUid}`, { token, body: {} });
    assert.equal(m.status, 501);
    await unchanged();
  });

  it('unknown enum values in a body or query', async () => {
    assertInvalid(await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, { token, body: { name: 'r', capabilities: ['CAP_NO_SUCH_THING'] } }));
    assertInvalid(await rest(berth.url, 'GET', '/iam/v2/identities?relationshipType=SIDEWAYS', { token }));
    const roles = await rest(berth.url, 'GET', '/iam/v2/roles?name=r', { token });
    assert.equal(roles.json.totalCount, '0');
    await unchanged();
  });

  it('bad audit log filters', async () => {
    const long = 'x'.repeat(700);
    for (const q of [
      'uidp.children_of=zzz',
      'page_size=-1',
      'skip=-2',
      'order_by=action',
      `identity=${long}`,
      'start_time=yesterday',
      'resource_uid=a%00b',
      'page_token=forged',
    ]) {
      const r = await rest(berth.url, 'GET', `/audit/v2/entries?${q}`, { token });
      assertInvalid(r);
    }
    // Seconds no calendar holds: refused, not an internal error.
    await assert.rejects(
      grpcClient(AuditService, berth.url, token).listEntries({ endTime: { seconds: 10n ** 15n, nanos: 0 } }),
      (err: unknown) => err instanceof ConnectError && err.code === Code.InvalidArgument,
    );
  });

  it('/v2beta1/ is an alias of /v2/', async () => {
    const r = await rest(berth.url, 'GET', `/registry/v2beta1/repos/${repoUid}`, { token });
    assert.equal(r.status, 200);
    assert.equal(r.json.name, 'stable');
  });

  it('NUL characters in any string, over REST, Connect and gRPC', async () => {
    const body = (r: { json: { details: Array<{ '@type': string; fieldViolations?: Array<{ field: string }> }> } }) =>
      r.json.details.find((d) => d['@type'].endsWith('BadRequest'))?.fieldViolations?.[0]?.field;
    const created = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'nul\u0000name' } });
    assertInvalid(created);
    assert.equal(body(created), 'repo.name');
    assertInvalid(await rest(berth.url, 'PATCH', `/registry/v2/repos/${repoUid}`, { token, body: { description: 'a\u0000b' } }));
    assertInvalid(await rest(berth.url, 'GET', '/registry/v2/repos?name=x%00y', { token }));
    const readme = await rest(berth.url, 'PATCH', `/registry/v2/repos/${repoUid}/readme`, { token, body: { content: '# \u0000' } });
    assertInvalid(readme);
    const connect = await fetch(`${berth.url}/berth.registry.v2.ReposService/UpdateRepo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ repo: { uid: repoUid, description: '\u0000' } }),
    });
    assert.equal(connect.status, 400);
    assert.equal(((await connect.json()) as { code: string }).code, 'invalid_argument');
    const client = grpcClient(ReposService, berth.url, token);
    await assert.rejects(
      client.createRepo({ parent: berth.orgUid, repo: { name: 'x', description: 'nul\u0000' } }),
      (err: unknown) => err instanceof ConnectError && err.code === Code.InvalidArgument,
    );
    await unchanged();
  });
});
