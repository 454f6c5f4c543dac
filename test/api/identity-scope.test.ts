// An identity created under a group is scoped to that group: it can hold roles
// there and below, never above — so an owner of a subgroup cannot turn an
// identity of its subgroup into an owner of the organization.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { exchangeStatic, identityWithRole, rest } from '../harness/api-client.js';
import { sqlQuery } from '../harness/database.js';

const OWNER_ROLE = 'owner';

function violations(json: { details: Array<{ '@type': string; fieldViolations?: Array<{ field: string }> }> }): string[] {
  return (json.details.find((d) => d['@type'].endsWith('BadRequest'))?.fieldViolations ?? []).map((v) => v.field);
}

describe('identity scope of role bindings', () => {
  let berth: Berth;
  let token: string;
  let sub: string;
  let ownerRole: string;
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    sub = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token: t, body: { name: 'sub' } })).json.uid;
    ownerRole = (await rest(b.url, 'GET', `/iam/v2/roles?name=${OWNER_ROLE}`, { token: t })).json.roles[0].uid;
  });

  it('refuses to bind a subgroup identity above its group, on create, batch create and update', async () => {
    const x = await identityWithRole(berth.url, token, sub, undefined, sub);
    const above = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: x.uid, roleUid: ownerRole } });
    assert.equal(above.status, 400, above.text);
    assert.equal(above.json.code, 3);
    assert.deepEqual(violations(above.json), ['identityUid']);

    const batch = await rest(berth.url, 'POST', '/iam/v2/roleBindings:batchCreate', {
      token,
      body: {
        parent: berth.orgUid,
        roleUid: ownerRole,
        requests: [{ parent: sub, roleBinding: { identityUid: x.uid } }, { roleBinding: { identityUid: x.uid } }],
      },
    });
    assert.equal(batch.status, 400, batch.text);
    assert.deepEqual(violations(batch.json), ['requests[1].role_binding.identityUid']);
    const none = await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(x.uid)}`, { token });
    assert.equal(none.json.totalCount, '0', 'the batch is all or none');

    // At its own group and below the identity can be bound, and the role changed.
    const ok = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${sub}`, { token, body: { identityUid: x.uid, roleUid: ownerRole } });
    assert.equal(ok.status, 200, ok.text);
    const viewer = (await rest(berth.url, 'GET', '/iam/v2/roles?name=viewer', { token })).json.roles[0].uid;
    const moved = await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${ok.json.uid}`, { token, body: { roleUid: viewer } });
    assert.equal(moved.status, 200, moved.text);
  });

  it('stops the subgroup-owner takeover of the organization', async () => {
    // The review's scenario: the root owner tries to bind R/a/x owner on R;
    // an owner bound only on R/a then takes over R/a/x's keys.
    const x = await identityWithRole(berth.url, token, sub, undefined, sub);
    const denied = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: x.uid, roleUid: ownerRole } });
    assert.equal(denied.status, 400, denied.text);

    const subOwner = await identityWithRole(berth.url, token, sub, OWNER_ROLE, sub);
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pub = { ...(await exportJWK(publicKey)), kid: 'mine', alg: 'ES256' };
    const subject = `taken-${randomBytes(4).toString('hex')}`;
    const patched = await rest(berth.url, 'PATCH', `/iam/v2/identities/${x.uid}`, {
      token: subOwner.token,
      body: { staticKeys: { issuer: 'https://ci.example', subject, issuerKeys: JSON.stringify({ keys: [pub] }) } },
    });
    assert.equal(patched.status, 200, patched.text);
    const xToken = await exchangeStatic(berth.url, x.uid, 'https://ci.example', subject, { ...(await exportJWK(privateKey)), kid: 'mine', alg: 'ES256' });
    const takeover = await rest(berth.url, 'PATCH', `/iam/v2/groups/${berth.orgUid}`, { token: xToken, body: { description: 'mine now' } });
    assert.equal(takeover.status, 403, takeover.text);
  });

  it('grants nothing through a binding above the identity scope that is already stored', async () => {
    // A binding written before the rule existed (planted in the database).
    const x = await identityWithRole(berth.url, token, sub, undefined, sub);
    const now = new Date().toISOString();
    await sqlQuery(berth, 'insert into role_bindings (uid, parent_uid, identity_uid, role_uid, create_time, update_time) values ($1, $2, $3, $4, $5, $6)', [
      `${berth.orgUid}/${randomBytes(8).toString('hex')}`,
      berth.orgUid,
      x.uid,
      ownerRole,
      now,
      now,
    ]);
    const atRoot = await rest(berth.url, 'PATCH', `/iam/v2/groups/${berth.orgUid}`, { token: x.token, body: { description: 'mine now' } });
    assert.equal(atRoot.status, 403, atRoot.text);
    const rootList = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.childrenOf=${berth.orgUid}`, { token: x.token });
    assert.equal(rootList.json.totalCount, '0');
  });

  it('answers identities and roles of another organization the same whether or not they exist', async () => {
    const other = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: `other-${randomBytes(3).toString('hex')}` } });
    assert.equal(other.status, 200, other.text);
    const foreignIdentity = await identityWithRole(berth.url, token, other.json.uid, undefined, other.json.uid);
    const foreignRole = await rest(berth.url, 'POST', `/iam/v2/roles/${other.json.uid}`, { token, body: { name: 'foreign', capabilities: ['CAP_REPO_LIST'] } });
    assert.equal(foreignRole.status, 200, foreignRole.text);
    const randomUid = `${other.json.uid}/${randomBytes(8).toString('hex')}`;
    const local = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);

    const realIdentity = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token,
      body: { identityUid: foreignIdentity.uid, roleUid: ownerRole },
    });
    const fakeIdentity = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: randomUid, roleUid: ownerRole } });
    assert.equal(realIdentity.status, 400, realIdentity.text);
    assert.deepEqual([fakeIdentity.status, fakeIdentity.json], [realIdentity.status, realIdentity.json]);

    const realRole = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token,
      body: { identityUid: local.uid, roleUid: foreignRole.json.uid },
    });
    const fakeRole = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: local.uid, roleUid: randomUid } });
    assert.equal(realRole.status, 400, realRole.text);
    assert.deepEqual([fakeRole.status, fakeRole.json], [realRole.status, realRole.json]);
  });
});
