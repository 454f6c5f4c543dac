// Who may create a root organization through the API: by default only owners
// of an existing organization, and only root-level identities (an identity
// created under an organization cannot own another one).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { startBerth, useBerth, type Berth } from '../harness/berth-process.js';
import { identityWithRole, ownerToken, rest } from '../harness/api-client.js';

const newName = () => `org-${randomBytes(4).toString('hex')}`;

describe('root organization creation', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('lets the first-start owner create an organization it then owns', async () => {
    const r = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: newName() } });
    assert.equal(r.status, 200, r.text);
    const inside = await rest(berth.url, 'POST', `/iam/v2/groups/${r.json.uid}`, { token, body: { name: 'team' } });
    assert.equal(inside.status, 200, inside.text);
  });

  it('refuses registry.push and other roles that merely include groups.create', async () => {
    const pusher = await identityWithRole(berth.url, token, berth.orgUid, 'registry.push', berth.orgUid);
    const r = await rest(berth.url, 'POST', '/iam/v2/groups', { token: pusher.token, body: { name: newName() } });
    assert.equal(r.status, 403, r.text);
    const custom = await rest(berth.url, 'POST', `/iam/v2/roles/${berth.orgUid}`, {
      token,
      body: { name: 'creator', capabilities: ['CAP_IAM_GROUPS_CREATE', 'CAP_IAM_GROUPS_LIST'] },
    });
    assert.equal(custom.status, 200, custom.text);
    const creator = await identityWithRole(berth.url, token, berth.orgUid, 'creator', berth.orgUid);
    const r2 = await rest(berth.url, 'POST', '/iam/v2/groups', { token: creator.token, body: { name: newName() } });
    assert.equal(r2.status, 403, r2.text);
  });

  it('refuses an owner identity that was created under an organization', async () => {
    const scopedOwner = await identityWithRole(berth.url, token, berth.orgUid, 'owner', berth.orgUid);
    const r = await rest(berth.url, 'POST', '/iam/v2/groups', { token: scopedOwner.token, body: { name: newName() } });
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.message, /root-level identity/);
  });
});

describe('--allow-org-creation', () => {
  it('nobody: not even owners create organizations; anyone: any root-level identity does', async () => {
    const closed = await startBerth({ extraArgs: ['--allow-org-creation', 'nobody'] });
    try {
      const r = await rest(closed.url, 'POST', '/iam/v2/groups', { token: ownerToken(closed.credentialsFile), body: { name: newName() } });
      assert.equal(r.status, 403, r.text);
      assert.match(r.json.message, /--allow-org-creation/);
    } finally {
      await closed.stop();
    }
    const open = await startBerth({ extraArgs: ['--allow-org-creation', 'anyone'] });
    try {
      const ownerTok = ownerToken(open.credentialsFile);
      const first = await rest(open.url, 'POST', '/iam/v2/groups', { token: ownerTok, body: { name: newName() } });
      assert.equal(first.status, 200, first.text);
      // Still not an identity scoped to an organization.
      const scoped = await identityWithRole(open.url, ownerTok, open.orgUid, 'registry.push', open.orgUid);
      const r = await rest(open.url, 'POST', '/iam/v2/groups', { token: scoped.token, body: { name: newName() } });
      assert.equal(r.status, 403, r.text);
    } finally {
      await open.stop();
    }
  });
});
