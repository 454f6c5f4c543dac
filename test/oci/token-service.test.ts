// The registry's Docker token service: the /v2/ challenge, tokens by GET
// (Basic `_token:<registry-audience Berth token>`, Bearer, anonymous) and by
// the OAuth2 POST form, the granted subset of each scope computed from the
// caller's current grants, and strict scope parsing.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';
import { basic, claimsOf, cliToken, identityWithKeys, registryGet, registryHost, tokenGet, tokenPost, type TestIdentity } from '../harness/registry-client.js';

describe('registry token service', () => {
  let berth: Berth;
  let owner: string; // API-audience token
  let ownerReg: string; // registry-audience token, from `berth auth token --audience`
  let host: string;
  let puller: TestIdentity;
  let pusher: TestIdentity;
  let nobody: TestIdentity;

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    host = registryHost(berth);
    const minted = cliToken(berth, host);
    assert.equal(minted.status, 0, minted.stderr);
    ownerReg = minted.token;
    const made = await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token: owner, body: { name: 'app' } });
    assert.equal(made.status, 200, made.text);
    const other = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: 'other.org' } });
    assert.equal(other.status, 200, other.text);
    assert.equal((await rest(berth.url, 'POST', `/registry/v2/repos/${other.json.uid}`, { token: owner, body: { name: 'app' } })).status, 200);
    puller = await identityWithKeys(berth, owner, berth.orgUid, 'registry.pull');
    pusher = await identityWithKeys(berth, owner, berth.orgUid, 'registry.push');
    nobody = await identityWithKeys(berth, owner, berth.orgUid);
  });

  it('answers /v2/ without credentials with the Bearer challenge', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await registryGet(berth, '/v2/', undefined, method);
      assert.equal(r.status, 401);
      assert.equal(r.headers.get('www-authenticate'), `Bearer realm="${berth.registryPublicUrl}/token",service="${host}"`);
      assert.equal(r.headers.get('docker-distribution-api-version'), 'registry/2.0');
      if (method === 'GET') assert.equal(r.json.errors[0].code, 'UNAUTHORIZED');
    }
  });

  it('accepts a registry-audience Berth token and a registry token on /v2/, and refuses an API-audience token with 403', async () => {
    const direct = await registryGet(berth, '/v2/', `Bearer ${ownerReg}`);
    assert.equal(direct.status, 200, direct.text);
    assert.deepEqual(direct.json, {});
    assert.equal(direct.headers.get('docker-distribution-api-version'), 'registry/2.0');
    const t = await tokenGet(berth, [], basic('_token', ownerReg));
    assert.equal((await registryGet(berth, '/v2/', `Bearer ${t.json.token}`)).status, 200);
    const api = await registryGet(berth, '/v2/', `Bearer ${owner}`);
    assert.equal(api.status, 403);
    assert.equal(api.json.errors[0].code, 'DENIED');
    const junk = await registryGet(berth, '/v2/', 'Bearer not.a.token');
    assert.equal(junk.status, 401);
    assert.match(junk.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });

  it('issues a token by GET with Basic _token:<registry-audience token>', async () => {
    const r = await tokenGet(berth, [`repository:${berth.orgName}/app:pull,push`], basic('_token', ownerReg));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.token, r.json.access_token);
    assert.equal(r.json.expires_in, 3600);
    assert.match(r.json.issued_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const c = claimsOf(r.json.token);
    assert.equal(c.aud, host);
    assert.equal(c.iss, berth.url);
    assert.equal(c.sub, berth.ownerIdentity);
    assert.deepEqual(c.access, [{ type: 'repository', name: `${berth.orgName}/app`, actions: ['pull', 'push'] }]);
  });

  it('issues a token by Bearer and by the OAuth2 password form (containerd)', async () => {
    const bearer = await tokenGet(berth, [`repository:${berth.orgName}/app:pull`], `Bearer ${ownerReg}`);
    assert.equal(bearer.status, 200, bearer.text);
    assert.deepEqual(claimsOf(bearer.json.token).access[0].actions, ['pull']);
    const form = await tokenPost(berth, {
      grant_type: 'password',
      username: '_token',
      password: ownerReg,
      client_id: 'containerd-client',
      service: host,
      scope: `repository:${berth.orgName}/app:pull,push repository:other.org/app:pull`,
    });
    assert.equal(form.status, 200, form.text);
    assert.equal(form.json.expires_in, 3600);
    assert.equal(form.json.scope, `repository:${berth.orgName}/app:pull,push repository:other.org/app:pull`);
    const access = claimsOf(form.json.access_token).access;
    assert.deepEqual(access, [
      { type: 'repository', name: `${berth.orgName}/app`, actions: ['pull', 'push'] },
      { type: 'repository', name: 'other.org/app', actions: ['pull'] },
    ]);
  });

  it('answers other grants 400 unsupported_grant_type and bad form credentials 401', async () => {
    const refresh = await tokenPost(berth, { grant_type: 'refresh_token', refresh_token: 'x', service: host, client_id: 'c' });
    assert.equal(refresh.status, 400);
    assert.equal(refresh.json.error, 'unsupported_grant_type');
    const bad = await tokenPost(berth, { grant_type: 'password', username: '_token', password: owner, service: host, client_id: 'c' });
    assert.equal(bad.status, 401);
    assert.equal(bad.json.error, 'invalid_grant');
    assert.equal(bad.json.errors[0].code, 'UNAUTHORIZED');
    const missing = await tokenPost(berth, { grant_type: 'password', username: '_token' });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error, 'invalid_request');
  });

  it('grants a pull-only identity pull when it asks for pull and push, and nothing in another organization', async () => {
    const tok = await puller.tokenFor(host);
    const r = await tokenGet(berth, [`repository:${berth.orgName}/app:pull,push`, 'repository:other.org/app:pull', 'registry:catalog:*'], basic('_token', tok));
    assert.equal(r.status, 200, r.text);
    const c = claimsOf(r.json.token);
    assert.equal(c.sub, puller.uid);
    assert.deepEqual(c.access, [
      { type: 'repository', name: `${berth.orgName}/app`, actions: ['pull'] },
      { type: 'repository', name: 'other.org/app', actions: [] },
      { type: 'registry', name: 'catalog', actions: [] },
    ]);
    const del = await tokenGet(berth, [`repository:${berth.orgName}/app:delete`], basic('_token', tok));
    assert.deepEqual(claimsOf(del.json.token).access[0].actions, []);
  });

  it('grants push on a repo that does not exist yet only to who may create repos there', async () => {
    const scope = `repository:${berth.orgName}/brand-new:pull,push`;
    const push = await tokenGet(berth, [scope], basic('_token', await pusher.tokenFor(host)));
    assert.deepEqual(claimsOf(push.json.token).access[0].actions, ['pull', 'push']);
    const pull = await tokenGet(berth, [scope], basic('_token', await puller.tokenFor(host)));
    assert.deepEqual(claimsOf(pull.json.token).access[0].actions, ['pull']);
    const none = await tokenGet(berth, [scope, 'repository:no-such-org/x:pull'], basic('_token', await nobody.tokenFor(host)));
    assert.deepEqual(
      claimsOf(none.json.token).access.map((a: { actions: string[] }) => a.actions),
      [[], []],
    );
  });

  it('reads the current grants: a binding made a moment ago counts on the next token', async () => {
    const late = await identityWithKeys(berth, owner, berth.orgUid);
    const tok = await late.tokenFor(host);
    const before = await tokenGet(berth, [`repository:${berth.orgName}/app:pull`], basic('_token', tok));
    assert.deepEqual(claimsOf(before.json.token).access[0].actions, []);
    const roles = await rest(berth.url, 'GET', '/iam/v2/roles?name=registry.pull', { token: owner });
    await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token: owner, body: { identityUid: late.uid, roleUid: roles.json.roles[0].uid } });
    const after = await tokenGet(berth, [`repository:${berth.orgName}/app:pull`], basic('_token', tok));
    assert.deepEqual(claimsOf(after.json.token).access[0].actions, ['pull']);
  });

  it('gives anonymous callers pull on the public organization at the free-tier tags only, and nothing elsewhere', async () => {
    const r = await tokenGet(berth, ['repository:public/app:pull,push,delete', `repository:${berth.orgName}/app:pull`]);
    assert.equal(r.status, 200, r.text);
    const c = claimsOf(r.json.token);
    assert.equal(c.sub, '');
    assert.equal(c.aud, host);
    assert.deepEqual(c.access, [
      { type: 'repository', name: 'public/app', actions: ['pull'], pull_tags: ['latest', 'latest-dev'] },
      { type: 'repository', name: `${berth.orgName}/app`, actions: [] },
    ]);
  });

  it('refuses bad credentials with 401 and the OCI body', async () => {
    const cases = [
      basic('_token', owner), // an API-audience token as the password
      basic('_token', 'garbage'),
      basic('someone', ownerReg), // a username no check takes
      `Bearer ${owner}`,
      'Digest abc',
    ];
    for (const auth of cases) {
      const r = await tokenGet(berth, [`repository:${berth.orgName}/app:pull`], auth);
      assert.equal(r.status, 401, auth.slice(0, 12));
      assert.equal(r.json.errors[0].code, 'UNAUTHORIZED');
    }
    // A registry token narrows an identity's rights; it is not a credential to widen them again.
    const t = await tokenGet(berth, [`repository:${berth.orgName}/app:pull`], basic('_token', ownerReg));
    assert.equal((await tokenGet(berth, [`repository:${berth.orgName}/app:push`], basic('_token', t.json.token))).status, 401);
  });

  it('parses scopes strictly', async () => {
    const auth = basic('_token', ownerReg);
    const nul = await registryGet(berth, `/token?scope=${encodeURIComponent(`repository:${berth.orgName}/app\u0000:pull`)}`, auth);
    assert.equal(nul.status, 400);
    assert.equal(nul.json.errors[0].code, 'REQUEST_INVALID');
    const many = await tokenGet(
      berth,
      Array.from({ length: 33 }, (_, i) => `repository:${berth.orgName}/r${i}:pull`),
      auth,
    );
    assert.equal(many.status, 400);
    const upper = await tokenGet(berth, ['repository:Example/App:pull'], auth);
    assert.equal(upper.status, 400);
    assert.equal(upper.json.errors[0].code, 'NAME_INVALID');
    for (const bad of ['repository', 'repository:x', ':a:pull', 'repo sitory:a/b:pull', `repository:${berth.orgName}/app:pu!l`]) {
      assert.equal((await tokenGet(berth, [bad], auth)).status, 400, bad);
    }
    const plugin = await tokenGet(
      berth,
      [`repository(plugin):${berth.orgName}/app:pull`, `repository:${berth.orgName}/app:push repository:${berth.orgName}/app:pull`],
      auth,
    );
    assert.equal(plugin.status, 200, plugin.text);
    assert.deepEqual(claimsOf(plugin.json.token).access, [
      { type: 'repository', class: 'plugin', name: `${berth.orgName}/app`, actions: ['pull'] },
      { type: 'repository', name: `${berth.orgName}/app`, actions: ['pull', 'push'] },
    ]);
  });
});
