// The SCIM server driven by a client written from RFC 7644 §3's example
// requests (users, groups, filters, paging, PATCH add/replace/remove, PUT,
// DELETE, discovery), the errors of §3.12, and who may call it: only the
// bearer of the provider's live SCIM token, while SCIM is enabled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { ERROR, enableScim, GROUP, LIST, newProvider, PATCH_OP, type ScimClient, scimClient, USER } from './scim-client.js';

const bjensen = {
  schemas: [USER],
  userName: 'bjensen',
  externalId: 'bjensen',
  name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
};

describe('SCIM 2.0 server (RFC 7644 §3 examples)', () => {
  let berth: Berth;
  let owner: string;
  let provider: string;
  let scim: ScimClient;
  let scimToken: string;
  useBerth(async (b, t) => {
    berth = b;
    owner = t;
    provider = await newProvider(b.url, t, b.orgUid);
    const on = await enableScim(b.url, t, provider);
    scimToken = on.token;
    scim = scimClient(b.url, on.endpoint, on.token);
  });

  const identityNames = async (uid: string) => (await sqlQuery(berth, 'select name from identities where uid = $1', [uid])).map((r) => r.name);
  const user = async (body: Record<string, unknown>) => {
    const r = await scim('POST', '/Users', body);
    assert.equal(r.status, 201, r.text);
    return r.json;
  };

  it('§3.3 creates a user: 201, Location, meta, application/scim+json; a second userName in any case is 409 uniqueness', async () => {
    const r = await scim('POST', '/Users', bjensen);
    assert.equal(r.status, 201, r.text);
    assert.match(r.headers.get('content-type') ?? '', /^application\/scim\+json/);
    assert.equal(r.json.userName, 'bjensen');
    assert.deepEqual(r.json.name, bjensen.name);
    assert.equal(r.json.active, true);
    assert.deepEqual(r.json.schemas, [USER]);
    assert.equal(r.json.meta.resourceType, 'User');
    assert.equal(r.headers.get('location'), r.json.meta.location);
    assert.equal(r.json.meta.location, `${scim.endpoint}/Users/${r.json.id}`);
    // The user is an identity of Berth's (root-level, as a first sign in makes it).
    assert.deepEqual(await identityNames(r.json.id), ['Ms. Barbara J Jensen III']);

    const again = await scim('POST', '/Users', { schemas: [USER], userName: 'BJENSEN', externalId: 'other' });
    assert.equal(again.status, 409);
    assert.deepEqual(again.json.schemas, [ERROR]);
    assert.equal(again.json.scimType, 'uniqueness');
    assert.equal(again.json.status, '409');
  });

  it('§3.4.1 gets a user by id; an unknown id is 404 with an error body', async () => {
    const created = await user({ schemas: [USER], userName: 'get-me' });
    const r = await scim('GET', `/Users/${created.id}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, created);
    const missing = await scim('GET', '/Users/2819c223-7f76-453a-919d-413861904646');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json.schemas, [ERROR]);
  });

  it('§3.4.2.2 filters users by userName (without case) and externalId; an unsupported filter is 400 invalidFilter', async () => {
    await user({ schemas: [USER], userName: 'filtered@example.com', externalId: 'ext-filtered' });
    const byName = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "Filtered@Example.com"')}`);
    assert.equal(byName.status, 200);
    assert.deepEqual(byName.json.schemas, [LIST]);
    assert.equal(byName.json.totalResults, 1);
    assert.equal(byName.json.Resources[0].userName, 'filtered@example.com');
    const byExt = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "ext-filtered"')}`);
    assert.equal(byExt.json.Resources[0].externalId, 'ext-filtered');
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody"')}`);
    assert.equal(none.json.totalResults, 0);
    assert.deepEqual(none.json.Resources, []);
    for (const f of ['userName co "filt"', 'title pr', 'userName eq "a" or userName eq "b"', 'userName eq']) {
      const bad = await scim('GET', `/Users?filter=${encodeURIComponent(f)}`);
      assert.equal(bad.status, 400, f);
      assert.equal(bad.json.scimType, 'invalidFilter', f);
    }
  });

  it('§3.4.2.4 pages users with startIndex and count', async () => {
    const all = (await scim('GET', '/Users?count=200')).json;
    assert.ok(all.totalResults >= 3);
    const page = await scim('GET', '/Users?startIndex=2&count=2');
    assert.equal(page.status, 200);
    assert.equal(page.json.startIndex, 2);
    assert.equal(page.json.itemsPerPage, 2);
    assert.equal(page.json.totalResults, all.totalResults);
    assert.deepEqual(
      page.json.Resources.map((u: { id: string }) => u.id),
      all.Resources.slice(1, 3).map((u: { id: string }) => u.id),
    );
    const zero = await scim('GET', '/Users?count=0');
    assert.equal(zero.json.itemsPerPage, 0);
    assert.equal(zero.json.totalResults, all.totalResults);
    assert.equal((await scim('GET', '/Users?count=ten')).status, 400);
  });

  it('§3.5.1 replaces a user with PUT', async () => {
    const created = await user({ schemas: [USER], userName: 'put-me', externalId: 'put-me' });
    const replacement = {
      schemas: [USER],
      id: created.id,
      userName: 'put-me',
      externalId: 'put-me',
      name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
      roles: [],
      userType: 'Employee',
      emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
    };
    const r = await scim('PUT', `/Users/${created.id}`, replacement);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.userType, 'Employee');
    assert.deepEqual(r.json.emails, replacement.emails);
    assert.equal(r.json.meta.version, 'W/"2"');
    assert.equal((await scim('PUT', `/Users/${created.id}`, { schemas: [USER] })).json.scimType, 'invalidValue');
  });

  it('§3.5.2 patches a user: add without a path, replace of a filtered sub-attribute, remove, active as Entra ID sends it', async () => {
    const created = await user({ schemas: [USER], userName: 'patch-me', emails: [{ value: 'old@example.com', type: 'work' }] });
    const patch = (...Operations: unknown[]) => scim('PATCH', `/Users/${created.id}`, { schemas: [PATCH_OP], Operations });
    let r = await patch({ op: 'add', value: { emails: [{ value: 'babs@jensen.org', type: 'home' }], nickName: 'Babs' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.nickName, 'Babs');
    assert.deepEqual(
      r.json.emails.map((e: { value: string }) => e.value),
      ['old@example.com', 'babs@jensen.org'],
    );
    r = await patch(
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'new@example.com' },
      { op: 'Replace', path: 'name.givenName', value: 'Babs' },
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.emails.find((e: { type: string }) => e.type === 'work').value, 'new@example.com');
    assert.equal(r.json.name.givenName, 'Babs');
    r = await patch({ op: 'remove', path: 'emails[type eq "home"]' }, { op: 'remove', path: 'nickName' });
    assert.deepEqual(r.json.emails, [{ value: 'new@example.com', type: 'work' }]);
    assert.equal(r.json.nickName, undefined);
    r = await patch({ op: 'Replace', path: 'active', value: 'False' });
    assert.equal(r.json.active, false);
    r = await patch({ op: 'replace', value: { active: true } });
    assert.equal(r.json.active, true);
    const bad = await patch({ op: 'move', path: 'nickName' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.scimType, 'invalidSyntax');
    assert.equal((await patch({ op: 'remove' })).json.scimType, 'noTarget');
    assert.equal((await patch({ op: 'add', path: 'a[[b', value: 1 })).json.scimType, 'invalidPath');
  });

  it('§3.6 deletes a user: 204, then 404; its identity is gone', async () => {
    const created = await user({ schemas: [USER], userName: 'delete-me' });
    const r = await scim('DELETE', `/Users/${created.id}`);
    assert.equal(r.status, 204);
    assert.equal((await scim('GET', `/Users/${created.id}`)).status, 404);
    assert.equal((await scim('DELETE', `/Users/${created.id}`)).status, 404);
    assert.deepEqual(await identityNames(created.id), []);
  });

  it('groups: create with members, filter by displayName, PATCH add and remove members (RFC and Entra ID forms), replace, PUT, DELETE', async () => {
    const a = await user({ schemas: [USER], userName: 'member-a', displayName: 'Member A' });
    const b = await user({ schemas: [USER], userName: 'member-b' });
    const c = await user({ schemas: [USER], userName: 'member-c' });
    const created = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Tour Guides', members: [{ value: a.id, display: 'Member A' }] });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json.members, [{ value: a.id, display: 'Member A', $ref: `${scim.endpoint}/Users/${a.id}`, type: 'User' }]);
    const id = created.json.id as string;
    const members = async () => ((await scim('GET', `/Groups/${id}`)).json.members ?? []).map((m: { value: string }) => m.value).sort();
    const patch = (...Operations: unknown[]) => scim('PATCH', `/Groups/${id}`, { schemas: [PATCH_OP], Operations });

    const found = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Tour Guides"')}&excludedAttributes=members`);
    assert.equal(found.json.totalResults, 1);
    assert.equal(found.json.Resources[0].members, undefined);

    assert.equal((await patch({ op: 'add', path: 'members', value: [{ display: 'B', value: b.id }, { value: c.id }] })).status, 200);
    assert.deepEqual(await members(), [a.id, b.id, c.id].sort());
    assert.equal((await patch({ op: 'remove', path: `members[value eq "${b.id}"]` })).status, 200);
    assert.deepEqual(await members(), [a.id, c.id].sort());
    // Entra ID: remove with a path and a list of values.
    assert.equal((await patch({ op: 'Remove', path: 'members', value: [{ value: c.id }] })).status, 200);
    assert.deepEqual(await members(), [a.id]);
    assert.equal((await patch({ op: 'replace', path: 'members', value: [{ value: b.id }, { value: c.id }] })).status, 200);
    assert.deepEqual(await members(), [b.id, c.id].sort());
    assert.equal((await patch({ op: 'replace', value: { id, displayName: 'Guides' } })).json.displayName, 'Guides');
    assert.equal((await patch({ op: 'remove', path: 'members' })).status, 200);
    assert.deepEqual(await members(), []);
    const unknown = await patch({ op: 'add', path: 'members', value: [{ value: 'not-a-user' }] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.scimType, 'invalidValue');

    const put = await scim('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'Tour Guides', externalId: 'tg', members: [{ value: a.id }] });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json.externalId, 'tg');
    assert.deepEqual(await members(), [a.id]);
    // A deleted user leaves its groups.
    assert.equal((await scim('DELETE', `/Users/${a.id}`)).status, 204);
    assert.deepEqual(await members(), []);
    assert.equal((await scim('DELETE', `/Groups/${id}`)).status, 204);
    assert.equal((await scim('GET', `/Groups/${id}`)).status, 404);
  });

  it('§4 serves ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    assert.equal(config.status, 200);
    assert.equal(config.json.patch.supported, true);
    assert.equal(config.json.bulk.supported, false);
    assert.equal(config.json.filter.maxResults, 200);
    assert.equal(config.json.authenticationSchemes[0].type, 'oauthbearertoken');
    const types = await scim('GET', '/ResourceTypes');
    assert.deepEqual(
      types.json.Resources.map((t: { id: string }) => t.id),
      ['User', 'Group'],
    );
    assert.equal((await scim('GET', '/ResourceTypes/User')).json.endpoint, '/Users');
    const schemas = await scim('GET', '/Schemas');
    assert.ok(schemas.json.Resources.some((s: { id: string }) => s.id === USER));
    assert.equal((await scim('GET', `/Schemas/${GROUP}`)).json.name, 'Group');
    assert.equal((await scim('GET', '/Schemas/urn:nope')).status, 404);
    assert.equal((await scim('GET', '/Nothing')).status, 404);
  });

  it('refuses NUL, bad JSON, oversize bodies and too many operations', async () => {
    const nul = await scim('POST', '/Users', { schemas: [USER], userName: 'nul\u0000user' });
    assert.equal(nul.status, 400);
    assert.equal(nul.json.scimType, 'invalidValue');
    const notJson = await scim('POST', '/Users', undefined);
    assert.equal(notJson.status, 400);
    const raw = await rest(berth.url, 'POST', `${new URL(scim.endpoint).pathname}/Users`, {
      token: scimToken,
      rawBody: '{"userName": ',
      headers: { 'content-type': 'application/scim+json' },
    });
    assert.equal(raw.json.scimType, 'invalidSyntax');
    const big = await scim('POST', '/Users', { schemas: [USER], userName: 'big', blob: 'x'.repeat(300 * 1024) });
    assert.equal(big.status, 413);
    const created = await user({ schemas: [USER], userName: 'many-ops' });
    const ops = Array.from({ length: 101 }, () => ({ op: 'replace', path: 'nickName', value: 'x' }));
    const many = await scim('PATCH', `/Users/${created.id}`, { schemas: [PATCH_OP], Operations: ops });
    assert.equal(many.json.scimType, 'tooMany');
    const nulPatch = await scim('PATCH', `/Users/${created.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'nickName', value: 'a\u0000b' }] });
    assert.equal(nulPatch.json.scimType, 'invalidValue');
    const proto = await rest(berth.url, 'PATCH', `${new URL(scim.endpoint).pathname}/Users/${created.id}`, {
      token: scimToken,
      rawBody: `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"add","value":{"__proto__":{"admin":true}}}]}`,
      headers: { 'content-type': 'application/scim+json' },
    });
    assert.equal(proto.status, 400);
    assert.equal((await scim('GET', `/Users/${created.id}`)).json.nickName, undefined, 'nothing changed');
    const long = await scim('POST', '/Users', { schemas: [USER], userName: 'x'.repeat(300) });
    assert.equal(long.json.scimType, 'invalidValue');
  });

  it('answers only the bearer of the provider’s live SCIM token, while SCIM is enabled', async () => {
    const path = new URL(scim.endpoint).pathname;
    const as = (token: string | undefined, p = path) => rest(berth.url, 'GET', `${p}/Users`, { token });
    assert.equal((await as(scimToken)).status, 200);
    const none = await as(undefined);
    assert.equal(none.status, 401);
    assert.deepEqual(none.json.schemas, [ERROR]);
    assert.equal((await as(owner)).status, 401, 'a platform token is not a SCIM token');
    assert.equal((await as(`${scimToken}0`)).status, 401);
    // Another provider's token, on this provider and on an unknown one.
    const other = await newProvider(berth.url, owner, berth.orgUid);
    const otherOn = await enableScim(berth.url, owner, other);
    assert.equal((await as(otherOn.token)).status, 401);
    assert.equal((await as(scimToken, `/scim/v2/${berth.orgUid}/0123456789abcdef`)).status, 401);
    assert.equal((await as(scimToken, '/scim/v2/not-a-uid')).status, 401);
    // Disabled: 403 for the right token; the wrong one still learns nothing more.
    const state = await rest(berth.url, 'GET', `/iam/v2/identityProviders/${other}`, { token: owner });
    const off = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${other}:setScimEnabled`, {
      token: owner,
      body: { enabled: false, etag: state.json.scim.etag },
    });
    assert.equal(off.status, 200, off.text);
    const otherPath = new URL(otherOn.endpoint).pathname;
    assert.equal((await as(otherOn.token, otherPath)).status, 403);
    assert.equal((await as(scimToken, otherPath)).status, 401);
    // Revoked: 401.
    await rest(berth.url, 'POST', `/iam/v2/identityProviders/${other}:revokeScimToken`, { token: owner, body: {} });
    assert.equal((await as(otherOn.token, otherPath)).status, 401);
  });
});
