// Group invites: the code shown once and stored only as a hash, defaults and
// validation, permission before existence, no escalation, paging in the
// default order (newest first), idempotent delete, REST and gRPC alike.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { Code, type ConnectError } from '@connectrpc/connect';
import { GroupInvitesService } from '../../src/gen/berth/iam/v2/group_invites_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';
const CODE = /^binv1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/;
const DAY_MS = 24 * 3600 * 1000;

function violations(json: { details?: Array<{ '@type': string; fieldViolations?: Array<{ field: string }> }> }): string[] {
  return (json.details?.find((d) => d['@type'].endsWith('BadRequest'))?.fieldViolations ?? []).map((v) => v.field);
}

describe('iam group invites', () => {
  let berth: Berth;
  let token: string;
  let sub: string;
  useBerth(async (b, t) => {
    berth = b;
    token = t;
    sub = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token: t, body: { name: 'invites-team' } })).json.uid;
  });
  const invite = (parent: string, body: unknown, tok = token) => rest(berth.url, 'POST', `/iam/v2/groupInvites/${parent}`, { token: tok, body });

  it('returns the code once and stores only its hash', async () => {
    const r = await invite(sub, { roleUid: VIEWER_UID, ttl: '3600s', singleUse: true, email: 'Kim@Example.com' });
    assert.equal(r.status, 200, r.text);
    const inv = r.json;
    assert.match(inv.uid, new RegExp(`^${sub}/[0-9a-f]{16}$`));
    assert.match(inv.code, CODE);
    assert.equal(inv.keyId, inv.code.split('.')[1]);
    assert.equal(inv.singleUse, true);
    assert.equal(inv.email, 'kim@example.com', 'emails are compared without case, and kept in lower case');
    assert.equal(Date.parse(inv.expirationTime) - Date.parse(inv.createTime), 3600_000);
    assert.deepEqual({ uid: inv.role.uid, name: inv.role.name }, { uid: VIEWER_UID, name: 'viewer' });
    assert.ok(inv.role.capabilities.includes('CAP_REPO_LIST'));
    assert.equal(inv.ttl, undefined, 'ttl is input only');

    const got = await rest(berth.url, 'GET', `/iam/v2/groupInvites/${inv.uid}`, { token });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.json, { ...inv, code: '' }, 'get shows everything but the code');
    const listed = await rest(berth.url, 'GET', `/iam/v2/groupInvites?keyId=${inv.keyId}`, { token });
    assert.deepEqual(listed.json.groupInvites, [{ ...inv, code: '' }]);

    const stored = await sqlQuery(berth, 'select * from group_invites where uid = $1', [inv.uid]);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].code_hash, createHash('sha256').update(inv.code).digest('hex'));
    assert.ok(!Object.values(stored[0]).some((v) => typeof v === 'string' && v.includes(inv.code.split('.')[2])), 'the secret is not stored');
  });

  it('defaults the ttl to 7 days, the maximum', async () => {
    const r = await invite(sub, { roleUid: VIEWER_UID });
    assert.equal(r.status, 200, r.text);
    assert.equal(Date.parse(r.json.expirationTime) - Date.parse(r.json.createTime), 7 * DAY_MS);
    assert.equal(r.json.singleUse, false);
    assert.equal(r.json.email, '');
  });

  it('validates the request and names the fields', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{}, ['group_invite.role_uid']],
      [{ roleUid: 'not-a-uid' }, ['group_invite.role_uid']],
      [{ roleUid: VIEWER_UID, ttl: '0s' }, ['group_invite.ttl']],
      [{ roleUid: VIEWER_UID, ttl: '-5s' }, ['group_invite.ttl']],
      [{ roleUid: VIEWER_UID, ttl: `${7 * 24 * 3600 + 1}s` }, ['group_invite.ttl']],
      [{ roleUid: VIEWER_UID, email: 'no at sign' }, ['group_invite.email']],
      [{ roleUid: VIEWER_UID, email: `${'a'.repeat(250)}@x.io` }, ['group_invite.email']],
      [{ ttl: '0.5s', email: 'x' }, ['group_invite.role_uid', 'group_invite.ttl', 'group_invite.email']],
    ];
    for (const [body, fields] of cases) {
      const r = await invite(sub, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.deepEqual(violations(r.json).sort(), [...fields].sort(), JSON.stringify(body));
    }
    // A custom role means something only where it is defined and below.
    const subRole = await rest(berth.url, 'POST', `/iam/v2/roles/${sub}`, { token, body: { name: 'sub-only', capabilities: ['CAP_TAG_LIST'] } });
    const above = await invite(berth.orgUid, { roleUid: subRole.json.uid });
    assert.equal(above.status, 400, above.text);
    assert.deepEqual(violations(above.json), ['group_invite.role_uid']);
    const noRole = await invite(sub, { roleUid: `${sub}/0000000000000000` });
    assert.equal(noRole.status, 404, noRole.text);
    const noGroup = await invite(`${sub}/0000000000000000`, { roleUid: VIEWER_UID });
    assert.equal(noGroup.status, 404, noGroup.text);
    const noInvite = await rest(berth.url, 'GET', `/iam/v2/groupInvites/${sub}/0000000000000000`, { token });
    assert.equal(noInvite.status, 404, noInvite.text);
    assert.equal(noInvite.json.details[1].resourceType, 'iam.berth.dev/GroupInvite');
  });

  it('checks permission before existence', async () => {
    const outsider = await identityWithRole(berth.url, token, sub, 'viewer', sub);
    const real = (await invite(berth.orgUid, { roleUid: VIEWER_UID })).json.uid as string;
    const fake = `${berth.orgUid}/0000000000000000`;
    for (const uid of [real, fake]) {
      const g = await rest(berth.url, 'GET', `/iam/v2/groupInvites/${uid}`, { token: outsider.token });
      assert.equal(g.status, 403, g.text);
      const d = await rest(berth.url, 'DELETE', `/iam/v2/groupInvites/${uid}`, { token: outsider.token });
      assert.equal(d.status, 403, d.text);
    }
    for (const parent of [berth.orgUid, `${berth.orgUid}/0000000000000000`]) {
      const c = await invite(parent, { roleUid: VIEWER_UID }, outsider.token);
      assert.equal(c.status, 403, c.text);
    }
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groupInvites/${real}`, { token })).status, 200);
  });

  it('needs role_bindings.create and every capability of the role (no escalation)', async () => {
    const team = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'esc' } })).json.uid as string;
    const mkRole = async (name: string, capabilities: string[]) =>
      (await rest(berth.url, 'POST', `/iam/v2/roles/${team}`, { token, body: { name, capabilities } })).json.uid as string;
    const inviterOnly = await mkRole('inviter-only', ['CAP_IAM_GROUP_INVITES_CREATE', 'CAP_REPO_LIST']);
    const inviter = await mkRole('inviter', ['CAP_IAM_GROUP_INVITES_CREATE', 'CAP_IAM_ROLE_BINDINGS_CREATE', 'CAP_REPO_LIST']);
    const reader = await mkRole('reader', ['CAP_REPO_LIST']);
    const bind = async (roleUid: string) => {
      const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, team);
      const b = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${team}`, { token, body: { identityUid: who.uid, roleUid } });
      assert.equal(b.status, 200, b.text);
      return who.token;
    };
    const noBindCap = await invite(team, { roleUid: reader }, await bind(inviterOnly));
    assert.equal(noBindCap.status, 403, noBindCap.text);
    assert.match(noBindCap.json.message, /role_bindings\.create/);
    const inviterToken = await bind(inviter);
    const ok = await invite(team, { roleUid: reader }, inviterToken);
    assert.equal(ok.status, 200, ok.text);
    const escalate = await invite(team, { roleUid: VIEWER_UID }, inviterToken);
    assert.equal(escalate.status, 403, escalate.text);
    const count = await sqlQuery(berth, 'select uid from group_invites where parent_uid = $1', [team]);
    assert.equal(count.length, 1, 'refused invites leave nothing behind');
  });

  it('lists newest first by default and pages through every invite', async () => {
    const team = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'paging' } })).json.uid as string;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await invite(team, { roleUid: VIEWER_UID })).json.uid);
    // Invites made in one millisecond tie on created_at and fall back to uid order, so compare with the stored order.
    const expected = (await sqlQuery(berth, 'select uid from group_invites where parent_uid = $1 order by create_time desc, uid desc', [team])).map(
      (r) => r.uid,
    );
    assert.deepEqual([...expected].sort(), [...made].sort());
    const seen: string[] = [];
    let pageToken = '';
    for (let pages = 0; pages < 10; pages++) {
      const q = `uidp.childrenOf=${team}&pageSize=2${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
      const page = await rest(berth.url, 'GET', `/iam/v2/groupInvites?${q}`, { token });
      assert.equal(page.status, 200, page.text);
      assert.equal(page.json.totalCount, '5');
      seen.push(...page.json.groupInvites.map((g: { uid: string }) => g.uid));
      pageToken = page.json.nextPageToken;
      if (pageToken === '') break;
    }
    assert.deepEqual(seen, expected);
    const asc = await rest(berth.url, 'GET', `/iam/v2/groupInvites?uidp.childrenOf=${team}&orderBy=created_at`, { token });
    assert.deepEqual(
      asc.json.groupInvites.map((g: { uid: string }) => g.uid),
      [...expected].reverse(),
    );
    const bad = await rest(berth.url, 'GET', '/iam/v2/groupInvites?orderBy=name', { token });
    assert.equal(bad.status, 400);
    assert.match(bad.json.message, /sortable fields: uid, created_at, expiration_time/);
    // A viewer of the team sees its invites only.
    const member = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', team);
    const theirs = await rest(berth.url, 'GET', '/iam/v2/groupInvites', { token: member.token });
    assert.equal(theirs.json.totalCount, '5');
  });

  it('deletes; a missing or already deleted invite is NOT_FOUND with ResourceInfo', async () => {
    const inv = (await invite(sub, { roleUid: VIEWER_UID })).json;
    const d = await rest(berth.url, 'DELETE', `/iam/v2/groupInvites/${inv.uid}`, { token });
    assert.equal(d.status, 200, d.text);
    assert.equal(d.text, '{}');
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groupInvites/${inv.uid}`, { token })).status, 404);
    for (const uid of [inv.uid, `${sub}/00000000000000ee`]) {
      const again = await rest(berth.url, 'DELETE', `/iam/v2/groupInvites/${uid}`, { token });
      assert.equal(again.status, 404, again.text);
      const info = again.json.details.find((x: { '@type': string }) => x['@type'] === 'type.googleapis.com/google.rpc.ResourceInfo');
      assert.deepEqual([info?.resourceType, info?.resourceName], ['iam.berth.dev/GroupInvite', uid]);
    }
  });

  it('goes with its group and with its role', async () => {
    const team = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'short-lived' } })).json.uid as string;
    await invite(team, { roleUid: VIEWER_UID });
    const del = await rest(berth.url, 'DELETE', `/iam/v2/groups/${team}`, { token });
    assert.equal(del.status, 200, `pending invites do not keep a group alive: ${del.text}`);
    assert.deepEqual(await sqlQuery(berth, 'select uid from group_invites where parent_uid = $1', [team]), []);
    const role = (await rest(berth.url, 'POST', `/iam/v2/roles/${sub}`, { token, body: { name: 'doomed', capabilities: ['CAP_REPO_LIST'] } })).json.uid;
    const inv = (await invite(sub, { roleUid: role })).json;
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roles/${role}`, { token })).status, 200);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groupInvites/${inv.uid}`, { token })).status, 404);
  });

  it('serves gRPC with the same behaviour', async () => {
    const client = grpcClient(GroupInvitesService, berth.url, token);
    const created = await client.createGroupInvite({ parent: sub, groupInvite: { roleUid: VIEWER_UID, ttl: { seconds: 60n }, singleUse: true } });
    assert.match(created.code, CODE);
    assert.equal(Number(created.expirationTime!.seconds - created.createTime!.seconds), 60);
    const got = await client.getGroupInvite({ uid: created.uid });
    assert.equal(got.code, '');
    assert.equal(got.keyId, created.keyId);
    const listed = await client.listGroupInvites({ keyId: created.keyId });
    assert.equal(listed.totalCount, 1n);
    await assert.rejects(client.createGroupInvite({ parent: sub, groupInvite: { roleUid: VIEWER_UID, ttl: { seconds: 8n * 24n * 3600n } } }), /ttl/);
    await client.deleteGroupInvite({ uid: created.uid });
    await assert.rejects(client.deleteGroupInvite({ uid: created.uid }), (e: ConnectError) => e.code === Code.NotFound);
  });
});
