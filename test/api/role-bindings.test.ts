// Role bindings: hydrated shape, effect on the next request, role scopes, batch all-or-none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type Berth } from '../harness/berth-process.js';
import { identityWithRole, ownerToken, rest } from '../harness/api-client.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

describe('iam role bindings', () => {
  let berth: Berth;
  let token: string;
  let sub: string;
  let rootRepo: string;
  let subRepo: string;
  const roleUid = async (name: string) => (await rest(berth.url, 'GET', `/iam/v2/roles?name=${name}`, { token })).json.roles[0].uid as string;
  before(async () => {
    berth = await startBerth();
    token = ownerToken(berth.credentialsFile);
    const g = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'team' } });
    assert.equal(g.status, 200, g.text);
    sub = g.json.uid;
    rootRepo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name: 'root-repo' } })).json.uid;
    subRepo = (await rest(berth.url, 'POST', `/registry/v2/repos/${sub}`, { token, body: { name: 'sub-repo' } })).json.uid;
  });
  after(async () => {
    await berth.stop();
  });

  it('returns the binding hydrated, as the contract shows', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const ident = (await rest(berth.url, 'GET', `/iam/v2/identities/${who.uid}`, { token })).json;
    const r = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: who.uid, roleUid: VIEWER_UID } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.json.uid, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));
    // identityWithRole uses the subject as the identity's name.
    assert.deepEqual(r.json.identity, { uid: who.uid, name: ident.name, description: '', subject: ident.name, issuer: 'https://ci.example', email: '' });
    assert.deepEqual(r.json.group, { uid: berth.orgUid, name: 'example.com', description: 'Root organization group' });
    assert.deepEqual(r.json.role, { uid: VIEWER_UID, name: 'viewer', description: 'Viewer Role (built-in)' });
    assert.match(r.json.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = await rest(berth.url, 'GET', `/iam/v2/roleBindings/${r.json.uid}`, { token });
    assert.deepEqual(got.json, r.json);
    const listed = await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(who.uid)}`, { token });
    assert.equal(listed.json.totalCount, '1');
    assert.deepEqual(listed.json.roleBindings[0], r.json);
    const dup = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: who.uid, roleUid: VIEWER_UID } });
    assert.equal(dup.status, 409, dup.text);
  });

  it('validates the request', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const missing = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: {} });
    assert.equal(missing.status, 400);
    const fields = missing.json.details
      .find((d: { '@type': string }) => d['@type'].endsWith('BadRequest'))
      .fieldViolations.map((v: { field: string }) => v.field);
    assert.deepEqual(fields, ['role_binding.identity_uid', 'role_binding.role_uid']);
    const noIdentity = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token,
      body: { identityUid: `${berth.orgUid}/0000000000000000`, roleUid: VIEWER_UID },
    });
    assert.equal(noIdentity.status, 404);
    const noRole = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token,
      body: { identityUid: who.uid, roleUid: `${berth.orgUid}/0000000000000000` },
    });
    assert.equal(noRole.status, 404);
    const noGroup = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}/0000000000000000`, {
      token,
      body: { identityUid: who.uid, roleUid: VIEWER_UID },
    });
    assert.equal(noGroup.status, 404);
    // A custom role defined in the subgroup cannot be bound at the root.
    const subRole = await rest(berth.url, 'POST', `/iam/v2/roles/${sub}`, { token, body: { name: 'sub-only', capabilities: ['CAP_TAG_LIST'] } });
    const outside = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: who.uid, roleUid: subRole.json.uid } });
    assert.equal(outside.status, 400, outside.text);
  });

  it('takes effect on the next request and is gone after delete; deleting it again is NOT_FOUND', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const before = await rest(berth.url, 'GET', `/registry/v2/repos/${rootRepo}`, { token: who.token });
    assert.equal(before.status, 403);
    const b = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: who.uid, roleUid: VIEWER_UID } });
    const during = await rest(berth.url, 'GET', `/registry/v2/repos/${rootRepo}`, { token: who.token });
    assert.equal(during.status, 200, during.text);
    const del = await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${b.json.uid}`, { token });
    assert.equal(del.status, 200);
    assert.equal(del.text, '{}');
    const afterDel = await rest(berth.url, 'GET', `/registry/v2/repos/${rootRepo}`, { token: who.token });
    assert.equal(afterDel.status, 403);
    // v2 answers 404 with ResourceInfo for a missing resource, deletes included.
    const again = await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${b.json.uid}`, { token });
    assert.equal(again.status, 404, again.text);
    const info = again.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.ResourceInfo');
    assert.deepEqual([info?.resourceType, info?.resourceName], ['iam.berth.dev/RoleBinding', b.json.uid]);
    const never = await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${berth.orgUid}/00000000000000ee`, { token });
    assert.equal(never.status, 404, never.text);
  });

  // What each built-in role allows, bound on the subgroup: in scope there, out of scope at the root.
  const cases: Array<{ role: string; read: boolean; write: boolean; bind: boolean }> = [
    { role: 'viewer', read: true, write: false, bind: false },
    { role: 'editor', read: true, write: true, bind: false },
    { role: 'owner', read: true, write: true, bind: true },
    { role: 'registry.pull', read: true, write: false, bind: false },
    { role: 'registry.push', read: true, write: true, bind: false },
  ];
  for (const c of cases) {
    it(`${c.role} applies on its group and below, not above`, async () => {
      const who = await identityWithRole(berth.url, token, berth.orgUid, c.role, sub);
      const inRead = await rest(berth.url, 'GET', `/registry/v2/repos/${subRepo}`, { token: who.token });
      assert.equal(inRead.status, c.read ? 200 : 403, inRead.text);
      const outRead = await rest(berth.url, 'GET', `/registry/v2/repos/${rootRepo}`, { token: who.token });
      assert.equal(outRead.status, 403);
      const inWrite = await rest(berth.url, 'PATCH', `/registry/v2/repos/${subRepo}`, { token: who.token, body: { description: c.role } });
      assert.equal(inWrite.status, c.write ? 200 : 403, inWrite.text);
      const outWrite = await rest(berth.url, 'PATCH', `/registry/v2/repos/${rootRepo}`, { token: who.token, body: { description: c.role } });
      assert.equal(outWrite.status, 403);
      const list = await rest(berth.url, 'GET', '/registry/v2/repos', { token: who.token });
      assert.deepEqual(
        list.json.repos.map((r: { uid: string }) => r.uid),
        [subRepo],
      );
      const other = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
      const bindIn = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${sub}`, { token: who.token, body: { identityUid: other.uid, roleUid: VIEWER_UID } });
      assert.equal(bindIn.status, c.bind ? 200 : 403, bindIn.text);
      const bindOut = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
        token: who.token,
        body: { identityUid: other.uid, roleUid: VIEWER_UID },
      });
      assert.equal(bindOut.status, 403);
    });
  }

  it('lets no one bind a role stronger than their own', async () => {
    const admin = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'binder', capabilities: ['CAP_IAM_ROLE_BINDINGS_CREATE', 'CAP_REPO_LIST'] },
    });
    assert.equal(admin.status, 200, admin.text);
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'binder', berth.orgUid);
    const other = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const owner = await roleUid('owner');
    const esc = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token: who.token, body: { identityUid: other.uid, roleUid: owner } });
    assert.equal(esc.status, 403, esc.text);
  });

  it('batch-creates all or none', async () => {
    const a = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const b = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const count = async () => Number((await rest(berth.url, 'GET', '/iam/v2/roleBindings', { token })).json.totalCount);
    const ok = await rest(berth.url, 'POST', '/iam/v2/roleBindings:batchCreate', {
      token,
      body: {
        parent: berth.orgUid,
        roleUid: VIEWER_UID,
        requests: [{ roleBinding: { identityUid: a.uid } }, { parent: sub, roleBinding: { identityUid: b.uid } }],
      },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(
      ok.json.roleBindings.map((x: { identity: { uid: string } }) => x.identity.uid),
      [a.uid, b.uid],
    );
    assert.deepEqual(
      ok.json.roleBindings.map((x: { group: { uid: string } }) => x.group.uid),
      [berth.orgUid, sub],
    );
    const n = await count();
    const many = Array.from({ length: 26 }, () => ({ roleBinding: { identityUid: a.uid } }));
    const tooMany = await rest(berth.url, 'POST', '/iam/v2/roleBindings:batchCreate', { token, body: { parent: sub, roleUid: VIEWER_UID, requests: many } });
    assert.equal(tooMany.status, 400);
    assert.equal(await count(), n);
    const editor = await roleUid('editor');
    const oneBad = await rest(berth.url, 'POST', '/iam/v2/roleBindings:batchCreate', {
      token,
      body: {
        parent: berth.orgUid,
        requests: [
          { roleBinding: { identityUid: a.uid, roleUid: editor } },
          { roleBinding: { identityUid: `${berth.orgUid}/0000000000000000`, roleUid: editor } },
        ],
      },
    });
    assert.equal(oneBad.status, 404, oneBad.text);
    assert.equal(await count(), n);
    const conflict = await rest(berth.url, 'POST', '/iam/v2/roleBindings:batchCreate', {
      token,
      body: { parent: berth.orgUid, roleUid: VIEWER_UID, requests: [{ roleBinding: { identityUid: a.uid, roleUid: editor } }] },
    });
    assert.equal(conflict.status, 400);
    const above = await rest(berth.url, 'POST', '/iam/v2/roleBindings:batchCreate', {
      token,
      body: { parent: sub, roleUid: editor, requests: [{ parent: berth.orgUid, roleBinding: { identityUid: a.uid } }] },
    });
    assert.equal(above.status, 400);
    assert.equal(await count(), n);
  });

  it('updates only the role', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const b = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${sub}`, { token, body: { identityUid: who.uid, roleUid: VIEWER_UID } });
    const editor = await roleUid('editor');
    const u = await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${b.json.uid}`, { token, body: { roleUid: editor } });
    assert.equal(u.status, 200, u.text);
    assert.equal(u.json.uid, b.json.uid);
    assert.equal(u.json.role.name, 'editor');
    assert.equal(u.json.createTime, b.json.createTime);
    const w = await rest(berth.url, 'PATCH', `/registry/v2/repos/${subRepo}`, { token: who.token, body: { description: 'by editor' } });
    assert.equal(w.status, 200, w.text);
  });
  it('applies the create rules to an update: anti-escalation, role scope, duplicates, role_bindings.update', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const b = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${sub}`, { token, body: { identityUid: who.uid, roleUid: VIEWER_UID } });
    assert.equal(b.status, 200, b.text);
    // A binder that may update bindings and holds what viewer grants, but not what editor adds.
    const updater = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'binding-updater', capabilities: ['CAP_IAM_ROLE_BINDINGS_UPDATE', 'CAP_IAM_ROLE_BINDINGS_LIST'] },
    });
    assert.equal(updater.status, 200, updater.text);
    const admin = await identityWithRole(berth.url, token, berth.orgUid, 'binding-updater', berth.orgUid);
    const viewerToo = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, { token, body: { identityUid: admin.uid, roleUid: VIEWER_UID } });
    assert.equal(viewerToo.status, 200, viewerToo.text);
    const editor = await roleUid('editor');
    const esc = await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${b.json.uid}`, { token: admin.token, body: { roleUid: editor } });
    assert.equal(esc.status, 403, esc.text);
    assert.match(esc.json.message, /subscriptions\.create/);
    const still = await rest(berth.url, 'GET', `/iam/v2/roleBindings/${b.json.uid}`, { token });
    assert.equal(still.json.role.name, 'viewer');
    // Within its own capabilities the update goes through with role_bindings.update alone (no .create).
    const pull = await roleUid('registry.pull');
    const ok = await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${b.json.uid}`, { token: admin.token, body: { roleUid: pull } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.role.name, 'registry.pull');
    // A role defined in a group the binding is not in (or below) is refused, before anything is read.
    const other = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'other-team' } });
    const foreign = await rest(berth.url, 'POST', `/iam/v2/roles/${other.json.uid}`, { token, body: { name: 'foreign', capabilities: ['CAP_TAG_LIST'] } });
    assert.equal(foreign.status, 200, foreign.text);
    const out = await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${b.json.uid}`, { token, body: { roleUid: foreign.json.uid } });
    assert.equal(out.status, 400, out.text);
    assert.match(out.text, /not defined at this group or above/);
    // The identity cannot be changed (its scope rule is checked by the one writer, and would refuse a move anyway).
    const stranger = await identityWithRole(berth.url, token, sub, undefined, sub);
    const move = await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${b.json.uid}`, { token, body: { identityUid: stranger.uid } });
    assert.equal(move.status, 400, move.text);
    // Turning it into a duplicate of another binding is refused.
    const dupOf = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${sub}`, { token, body: { identityUid: who.uid, roleUid: editor } });
    assert.equal(dupOf.status, 200, dupOf.text);
    const dup = await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${b.json.uid}`, { token, body: { roleUid: editor } });
    assert.equal(dup.status, 409, dup.text);
    const after = await rest(berth.url, 'GET', `/iam/v2/roleBindings/${b.json.uid}`, { token });
    assert.equal(after.json.role.name, 'registry.pull');
  });
  it('takes a role away only from a caller holding all of it: role_bindings.delete alone removes no owner', async () => {
    const ownerBinding = (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${berth.ownerIdentity}&group=${berth.orgUid}`, { token })).json
      .roleBindings[0].uid as string;
    const deleter = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'binding-deleter', capabilities: ['CAP_IAM_ROLE_BINDINGS_DELETE'] },
    });
    assert.equal(deleter.status, 200, deleter.text);
    const bob = await identityWithRole(berth.url, token, berth.orgUid, 'binding-deleter', berth.orgUid);
    const denied = await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${ownerBinding}`, { token: bob.token });
    assert.equal(denied.status, 403, denied.text);
    assert.match(denied.json.message, /groups\.create/);
    // Within its own capabilities it may delete: a binding of its own role.
    const peer = await identityWithRole(berth.url, token, berth.orgUid, 'binding-deleter', berth.orgUid);
    const peerBinding = (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(peer.uid)}`, { token })).json.roleBindings[0].uid;
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${peerBinding}`, { token: bob.token })).status, 200);
    // An owner of a subgroup, an owner of another organization and no token get nowhere either.
    const subOwner = await identityWithRole(berth.url, token, berth.orgUid, 'owner', sub);
    const otherOrg = (await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'bindings-other.example' } })).json.uid as string;
    const otherOwner = await identityWithRole(berth.url, token, otherOrg, 'owner', otherOrg);
    for (const t of [subOwner.token, otherOwner.token]) {
      assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${ownerBinding}`, { token: t })).status, 403);
    }
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${ownerBinding}`)).status, 401);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/roleBindings/${ownerBinding}`, { token })).status, 200, 'the owner binding stands');
  });

  it('keeps an organization at least one binding granting every owner capability, whichever way it would go', async () => {
    const lastOwner = (r: { status: number; text: string; json: { code: number; details: Array<Record<string, unknown>> } }, org: string) => {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 9);
      const pf = r.json.details.find((d) => String(d['@type']).endsWith('PreconditionFailure')) as { violations: Array<Record<string, string>> };
      assert.deepEqual([pf.violations[0].type, pf.violations[0].subject], ['LAST_OWNER', org]);
    };
    const org = (await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'last-owner.example' } })).json.uid as string;
    const bindingOf = async (identity: string, as = token) =>
      (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(identity)}&group=${org}`, { token: as })).json.roleBindings[0]
        .uid as string;
    // The creator's binding is the only one: it cannot be deleted, nor its role changed, nor its identity deleted.
    const creatorBinding = await bindingOf(berth.ownerIdentity);
    lastOwner(await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${creatorBinding}`, { token }), org);
    lastOwner(await rest(berth.url, 'PATCH', `/iam/v2/roleBindings/${creatorBinding}`, { token, body: { roleUid: VIEWER_UID } }), org);
    // With a second owner the first may go.
    const b = await identityWithRole(berth.url, token, org, 'owner', org);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${creatorBinding}`, { token: b.token })).status, 200);
    lastOwner(await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${await bindingOf(b.uid, b.token)}`, { token: b.token }), org);
    lastOwner(await rest(berth.url, 'DELETE', `/iam/v2/identities/${b.uid}`, { token: b.token }), org);
    // A custom role holding every owner capability counts as owner, until it is narrowed.
    const ownerCaps = (await rest(berth.url, 'GET', `/iam/v2/roles/${await roleUid('owner')}`, { token })).json.capabilities as string[];
    const full = await rest(berth.url, 'POST', `/iam/v2/roles/${org}`, { token: b.token, body: { name: 'all-of-owner', capabilities: ownerCaps } });
    assert.equal(full.status, 200, full.text);
    const c = await identityWithRole(berth.url, b.token, org, 'all-of-owner', org);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${await bindingOf(b.uid, b.token)}`, { token: b.token })).status, 200);
    const narrowed = ownerCaps.filter((x) => x !== 'CAP_REPO_DELETE');
    lastOwner(await rest(berth.url, 'PATCH', `/iam/v2/roles/${full.json.uid}`, { token: c.token, body: { capabilities: narrowed } }), org);
    lastOwner(await rest(berth.url, 'DELETE', `/iam/v2/identities/${c.uid}`, { token: c.token }), org);
    // Nothing changed: c is still an owner of the organization.
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/roles/${full.json.uid}`, { token: c.token })).json.capabilities.length, ownerCaps.length);
    // Bindings below the root group are not owner bindings of the organization: they go freely.
    const team = (await rest(berth.url, 'POST', `/iam/v2/groups/${org}`, { token: c.token, body: { name: 'team' } })).json.uid as string;
    const d = await identityWithRole(berth.url, c.token, org, 'owner', team);
    const teamBinding = (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(d.uid)}`, { token: c.token })).json.roleBindings[0]
      .uid;
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${teamBinding}`, { token: c.token })).status, 200);
  });
  it('lets exactly one of two owners removing each other at once succeed', async () => {
    // Five rounds: without the organization's row lock (PostgreSQL) both deletes often commit, leaving no owner.
    for (let round = 0; round < 5; round++) {
      const org = (await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: `mutual-${round}.example` } })).json.uid as string;
      const a = await identityWithRole(berth.url, token, org, 'owner', org);
      const b = await identityWithRole(berth.url, token, org, 'owner', org);
      const bindingOf = async (uid: string) =>
        (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(uid)}`, { token: a.token })).json.roleBindings[0].uid as string;
      const [ofA, ofB] = [await bindingOf(a.uid), await bindingOf(b.uid)];
      // The creator steps aside first, leaving a and b as the only owners.
      const mine = (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${berth.ownerIdentity}&group=${org}`, { token })).json.roleBindings[0].uid;
      assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${mine}`, { token })).status, 200);
      const results = await Promise.all([
        rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${ofB}`, { token: a.token }),
        rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${ofA}`, { token: b.token }),
      ]);
      // The loser is LAST_OWNER, or PERMISSION_DENIED when the winner committed before its grants were read.
      const [won, lost] = [...results].sort((x, y) => x.status - y.status);
      assert.equal(won.status, 200, won.text);
      assert.ok(lost.status === 400 || lost.status === 403, lost.text);
      const left = await rest(berth.url, 'GET', `/iam/v2/roleBindings?group=${org}`, { token: results[0].status === 200 ? a.token : b.token });
      assert.equal(left.json.totalCount, '1');
    }
  });
});
