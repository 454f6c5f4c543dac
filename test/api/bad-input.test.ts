// Bad input gets a structured error and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { ownerToken, rest } from '../harness/api-client.js';

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

  it('/v2beta1/ is an alias of /v2/', async () => {
    const r = await rest(berth.url, 'GET', `/registry/v2beta1/repos/${repoUid}`, { token });
    assert.equal(r.status, 200);
    assert.equal(r.json.name, 'stable');
  });
});
