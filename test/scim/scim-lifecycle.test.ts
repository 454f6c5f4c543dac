// A provisioned user's whole life: SCIM creates it (an identity of Berth's,
// signing in with the provider's ID tokens), puts it in a group an external
// group role mapping binds (the role works with the user's token, and goes
// when the user leaves the group), deactivates it (the token it already
// holds is refused on its next request, and no new one is issued) and
// reactivates it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { type Berth, startBerth } from '../harness/berth-process.js';
import { type FakeIssuer, fakeIssuer } from '../harness/oidc-issuer.js';
import { enableScim, GROUP, newProvider, PATCH_OP, type ScimClient, scimClient, USER } from './scim-client.js';

describe('SCIM user life cycle', () => {
  let berth: Berth;
  let owner: string;
  let idp: FakeIssuer;
  let scim: ScimClient;
  let provider: string;
  let team: string;
  before(async () => {
    idp = await fakeIssuer();
    berth = await startBerth({ extraArgs: ['--allow-insecure-issuers'] });
    owner = (await import('../harness/api-client.js')).ownerToken(berth.credentialsFile);
    team = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'team' } })).json.uid;
    provider = await newProvider(berth.url, owner, berth.orgUid, idp.url);
    const on = await enableScim(berth.url, owner, provider);
    scim = scimClient(berth.url, on.endpoint, on.token);
  });
  after(async () => {
    await berth.stop();
    await idp.close();
  });

  /** A Berth token for the user, exchanged for the provider's ID token as a client signing in would. */
  const signIn = async (identity: string, subject: string) =>
    rest(berth.url, 'POST', `/sts/exchange?identity=${encodeURIComponent(identity)}&aud=${encodeURIComponent(berth.url)}`, {
      headers: { authorization: `Bearer ${await idp.sign(subject, berth.url)}` },
    });
  const createRepo = (token: string, name: string) => rest(berth.url, 'POST', `/registry/v2/repos/${team}`, { token, body: { name } });

  it('create → group → mapped role works → leave group → deactivate (refused at once) → reactivate', async () => {
    const roles = (await rest(berth.url, 'GET', '/iam/v2/roles?name=editor', { token: owner })).json.roles;
    const mapping = await rest(berth.url, 'POST', `/iam/v2/externalGroupRoleMappings/${provider}`, {
      token: owner,
      body: { externalGroupId: 'engineers', roleUid: roles[0].uid, scope: team },
    });
    assert.equal(mapping.status, 200, mapping.text);

    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'ada@example.com', externalId: '00u1ada', displayName: 'Ada' });
    assert.equal(created.status, 201, created.text);
    const id = created.json.id as string;
    const exchanged = await signIn(id, '00u1ada');
    assert.equal(exchanged.status, 200, exchanged.text);
    const token = exchanged.json.token as string;
    // The provider's default role (viewer) on its group: reads, but no repo writes.
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${team}`, { token })).status, 200);
    assert.equal((await createRepo(token, 'before-group')).status, 403);

    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'engineers', members: [{ value: id }] });
    assert.equal(group.status, 201, group.text);
    assert.equal((await createRepo(token, 'in-group')).status, 200, 'the mapped editor role works with the token the user already holds');

    const leave = await scim('PATCH', `/Groups/${group.json.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] });
    assert.equal(leave.status, 200, leave.text);
    assert.equal((await createRepo(token, 'left-group')).status, 403);
    const rejoin = await scim('PATCH', `/Groups/${group.json.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
    });
    assert.equal(rejoin.status, 200, rejoin.text);
    assert.equal((await createRepo(token, 'rejoined')).status, 200);

    // Okta's deactivation.
    const off = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.json.active, false);
    const refused = await rest(berth.url, 'GET', `/iam/v2/groups/${team}`, { token });
    assert.equal(refused.status, 401, 'the token is refused on its next request, not at its expiry');
    assert.notEqual((await signIn(id, '00u1ada')).status, 200, 'no new token either');
    // Still a SCIM user, inactive, still in its group.
    assert.equal((await scim('GET', `/Users/${id}`)).json.active, false);

    const on = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: true }] });
    assert.equal(on.status, 200, on.text);
    const again = await signIn(id, '00u1ada');
    assert.equal(again.status, 200, again.text);
    assert.equal((await createRepo(again.json.token, 'reactivated')).status, 200, 'the group role comes back with the identity');

    // DELETE deprovisions as well.
    assert.equal((await scim('DELETE', `/Users/${id}`)).status, 204);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${team}`, { token: again.json.token })).status, 401);
  });

  it('a mapping created after the SCIM membership applies at once', async () => {
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'grace@example.com', externalId: '00u1grace' });
    const id = created.json.id as string;
    await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Platform', externalId: 'grp-platform', members: [{ value: id }] });
    const token = (await signIn(id, '00u1grace')).json.token as string;
    assert.equal((await createRepo(token, 'grace-before')).status, 403);
    const roles = (await rest(berth.url, 'GET', '/iam/v2/roles?name=editor', { token: owner })).json.roles;
    const mapping = await rest(berth.url, 'POST', `/iam/v2/externalGroupRoleMappings/${provider}`, {
      token: owner,
      body: { externalGroupId: 'grp-platform', roleUid: roles[0].uid, scope: team },
    });
    assert.equal(mapping.status, 200, mapping.text);
    assert.equal((await createRepo(token, 'grace-after')).status, 200);
  });
});
