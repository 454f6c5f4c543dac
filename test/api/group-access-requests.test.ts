// Joining an organization by email domain: an operator verifies a domain
// (berth admin verify-domain); LookupGroup finds the organization of the
// caller's verified email and nothing else; CheckEligibility and
// RequestGroupAccess; the owners list, approve (a role binding that works at
// once and in the next token) or deny (a day's cool-off); duplicates; the
// events; who may do what (no token, bound only in a subgroup, another
// organization); bad input. REST and gRPC, one server.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { GroupAccessRequest_State, GroupsService } from '../../src/gen/berth/iam/v2/groups_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { CLI, useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { fakeIssuer, type FakeIssuer } from '../harness/oidc-issuer.js';

const NO_SUCH = (org: string) => `${org}/00000000000000aa`;

/** Runs berth admin verify-domain against the test server's database. */
function verifyDomain(berth: Berth, domain: string, ...more: string[]) {
  const args = [CLI, 'admin', 'verify-domain', domain, '--data', berth.dataDir, ...more];
  if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
  return spawnSync(process.execPath, args, { encoding: 'utf8' });
}

async function grpcCode(p: Promise<unknown>): Promise<Code | 'OK'> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    return ConnectError.from(err).code;
  }
}

describe('group access requests', () => {
  let berth: Berth;
  let token: string;
  let ext: FakeIssuer;
  let otherOrg: string;
  let sub: string;
  let repo: string;
  useBerth(
    async (b, t) => {
      berth = b;
      token = t;
      const done = verifyDomain(b, 'Example.COM', '--org', b.orgName);
      assert.equal(done.status, 0, done.stderr);
      assert.match(done.stderr, /example\.com is verified for/);
      otherOrg = (await rest(b.url, 'POST', '/iam/v2/groups', { token, body: { name: `other-${Date.now()}` } })).json.uid;
      const otherName = (await rest(b.url, 'GET', `/iam/v2/groups/${otherOrg}`, { token })).json.name;
      assert.equal(verifyDomain(b, 'other.example', '--org', otherName).status, 0);
      // A domain belongs to one organization.
      const taken = verifyDomain(b, 'other.example', '--org', b.orgName);
      assert.notEqual(taken.status, 0);
      assert.match(taken.stderr, /verified for another organization/);
      assert.notEqual(verifyDomain(b, 'not a domain').status, 0);
      sub = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token, body: { name: 'team' } })).json.uid;
      repo = (await rest(b.url, 'POST', `/registry/v2/repos/${b.orgUid}`, { token, body: { name: 'inside' } })).json.uid;
    },
    { extraArgs: ['--allow-insecure-issuers'] },
  );
  before(async () => {
    ext = await fakeIssuer();
  });
  after(() => ext.close());

  let n = 0;
  /** An identity under `parent` that signs in with a verified email; its uid, a token, and how to get its next token. */
  const person = async (email: string, parent = berth.orgUid) => {
    const subject = `p${++n}`;
    const made = await rest(berth.url, 'POST', `/iam/v2/identities/${parent}`, { token, body: { name: subject, claimMatch: { issuer: ext.url, subject } } });
    assert.equal(made.status, 200, made.text);
    const uid = made.json.uid as string;
    const next = async () => {
      const idToken = await ext.sign(subject, berth.url, { email, email_verified: true });
      const r = await rest(berth.url, 'GET', `/sts/exchange?identity=${encodeURIComponent(uid)}`, { headers: { authorization: `Bearer ${idToken}` } });
      assert.equal(r.status, 200, r.text);
      return r.json.token as string;
    };
    return { uid, name: subject, token: await next(), next };
  };
  const as = (tok: string | undefined) => ({
    lookup: () => rest(berth.url, 'GET', '/iam/v2/groups:lookupGroup', { token: tok }),
    eligible: async () => {
      const r = await rest(berth.url, 'GET', '/iam/v2/groups:checkEligibility', { token: tok });
      assert.equal(r.status, 200, r.text);
      return r.json.eligible as boolean;
    },
    request: (group: string) => rest(berth.url, 'POST', `/iam/v2/groups/${group}:requestGroupAccess`, { token: tok, body: {} }),
    list: (group: string, query = '') => rest(berth.url, 'GET', `/iam/v2/groups/${group}:listAccessRequests${query}`, { token: tok }),
    approve: (uid: string, body: Record<string, unknown> = {}) => rest(berth.url, 'POST', `/iam/v2/groups/${uid}:approveAccessRequest`, { token: tok, body }),
    deny: (uid: string) => rest(berth.url, 'POST', `/iam/v2/groups/${uid}:denyAccessRequest`, { token: tok, body: {} }),
  });
  const owner = () => as(token);
  /** The caller's pending request at the organization, as its owners see it. */
  const pendingOf = async (identity: string) => {
    const r = await owner().list(berth.orgUid, '?state=STATE_PENDING');
    assert.equal(r.status, 200, r.text);
    return r.json.groupAccessRequests.find((x: { identityUid: string }) => x.identityUid === identity);
  };

  it('finds the organization of the caller’s verified email domain, and answers NOT_FOUND alike for everything else', async () => {
    const ann = await person('Ann@EXAMPLE.com');
    const found = await as(ann.token).lookup();
    assert.equal(found.status, 200, found.text);
    assert.equal(found.json.group.uid, berth.orgUid);
    assert.equal(found.json.group.verified, true);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).json.verified, true);

    const misses = [
      await person('bo@unverified.example'),
      // Its identity lives in another organization: it could never be bound here.
      await person('cy@example.com', otherOrg),
      await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid), // no email at all
    ];
    const bodies = new Set<string>();
    for (const who of misses) {
      const r = await as(who.token).lookup();
      assert.equal(r.status, 404, r.text);
      bodies.add(r.text);
    }
    assert.equal(bodies.size, 1, 'one answer for every miss');
    assert.equal((await as(undefined).lookup()).status, 401);

    const client = grpcClient(GroupsService, berth.url, ann.token);
    assert.equal((await client.lookupGroup({})).group?.uid, berth.orgUid);
    assert.equal(await grpcCode(grpcClient(GroupsService, berth.url, misses[0].token).lookupGroup({})), Code.NotFound);

    // Withdrawn, the domain finds nothing, and the organization is no longer verified.
    assert.equal(verifyDomain(berth, 'example.com', '--org', berth.orgName, '--remove').status, 0);
    assert.equal((await as(ann.token).lookup()).status, 404);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).json.verified, false);
    assert.equal(verifyDomain(berth, 'example.com', '--org', berth.orgName).status, 0);
  });

  it('request → approve: the requester holds the role at once and in its next token; the request is decided once', async () => {
    const dee = await person('dee@example.com');
    const me = as(dee.token);
    assert.equal((await rest(berth.url, 'GET', `/registry/v2/repos/${repo}`, { token: dee.token })).status, 403);
    assert.equal(await me.eligible(), true);
    const asked = await me.request(berth.orgUid);
    assert.equal(asked.status, 200, asked.text);
    assert.deepEqual(asked.json, {});
    assert.equal(await me.eligible(), false);
    const again = await me.request(berth.orgUid);
    assert.equal(again.status, 429, again.text);
    assert.equal(again.json.code, 8);

    const pending = await pendingOf(dee.uid);
    assert.equal(pending.email, 'dee@example.com');
    assert.equal(pending.groupUid, berth.orgUid);
    assert.equal(pending.state, 'STATE_PENDING');
    assert.match(pending.uid, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));

    const approved = await owner().approve(pending.uid);
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.json.state, 'STATE_APPROVED');
    assert.ok(approved.json.decideTime);
    const binding = await rest(berth.url, 'GET', `/iam/v2/roleBindings/${approved.json.roleBindingUid}`, { token });
    assert.equal(binding.json.identity.uid, dee.uid);
    assert.equal(binding.json.group.uid, berth.orgUid);
    assert.equal(binding.json.role.name, 'viewer');
    assert.equal((await rest(berth.url, 'GET', `/registry/v2/repos/${repo}`, { token: dee.token })).status, 200);
    assert.equal((await rest(berth.url, 'GET', `/registry/v2/repos/${repo}`, { token: await dee.next() })).status, 200);

    const twice = await owner().approve(pending.uid);
    assert.equal(twice.status, 400, twice.text);
    assert.match(JSON.stringify(twice.json.details), /ACCESS_REQUEST_DECIDED/);
    assert.equal((await owner().deny(pending.uid)).status, 400);
    const member = await me.request(berth.orgUid);
    assert.equal(member.status, 400, member.text);
    assert.match(JSON.stringify(member.json.details), /ALREADY_MEMBER/);
    assert.equal(await me.eligible(), false);

    const events = await sqlQuery(berth, 'select type, group_uid, actor, body from event_outbox where subject = $1 order by id', [pending.uid]);
    assert.deepEqual(
      events.map((e) => [e.type, e.group_uid, JSON.parse(String(e.actor)).subject]),
      [
        ['api.iam.group_access_request.created.v1', berth.orgUid, dee.uid],
        ['api.iam.group_access_request.approved.v1', berth.orgUid, berth.ownerIdentity],
      ],
    );
    assert.equal(JSON.parse(String(events[1].body)).roleBindingUid, approved.json.roleBindingUid);
  });

  it('deny over gRPC, a day’s cool-off, and approving only what the approver could bind itself', async () => {
    const eve = await person('eve@example.com');
    const client = grpcClient(GroupsService, berth.url, eve.token);
    assert.equal((await client.checkEligibility({})).eligible, true);
    await client.requestGroupAccess({ groupUid: berth.orgUid });
    assert.equal(await grpcCode(client.requestGroupAccess({ groupUid: berth.orgUid })), Code.ResourceExhausted);
    const req = await pendingOf(eve.uid);
    const owners = grpcClient(GroupsService, berth.url, token);
    const denied = await owners.denyGroupAccessRequest({ uid: req.uid });
    assert.equal(denied.state, GroupAccessRequest_State.DENIED);
    assert.equal(denied.decidedBy, berth.ownerIdentity);
    assert.equal(await grpcCode(client.requestGroupAccess({ groupUid: berth.orgUid })), Code.ResourceExhausted);
    assert.equal((await client.checkEligibility({})).eligible, false);
    const listed = await owners.listGroupAccessRequests({ groupUid: berth.orgUid, state: GroupAccessRequest_State.DENIED });
    assert.deepEqual(
      listed.groupAccessRequests.map((r) => r.uid),
      [req.uid],
    );
    assert.equal(
      (await sqlQuery(berth, 'select type from event_outbox where subject = $1 order by id', [req.uid])).at(-1)?.type,
      'api.iam.group_access_request.denied.v1',
    );

    // A day later it may ask again.
    await sqlQuery(berth, 'update group_access_requests set decide_time = $1 where uid = $2', [new Date(Date.now() - 25 * 3600_000).toISOString(), req.uid]);
    assert.equal((await client.checkEligibility({})).eligible, true);
    await client.requestGroupAccess({ groupUid: berth.orgUid });
    const second = await pendingOf(eve.uid);
    assert.notEqual(second.uid, req.uid);

    // A limited owner may bind viewer, not owner (CreateRoleBinding's rule).
    const limited = await identityWithRole(berth.url, token, berth.orgUid, 'limited_owner', berth.orgUid);
    const ownerRole = (await rest(berth.url, 'GET', '/iam/v2/roles?name=owner', { token })).json.roles[0].uid;
    const escalate = await as(limited.token).approve(second.uid, { roleUid: ownerRole });
    assert.equal(escalate.status, 403, escalate.text);
    assert.equal((await pendingOf(eve.uid)).uid, second.uid, 'still pending');
    const ok = await grpcClient(GroupsService, berth.url, limited.token).approveGroupAccessRequest({ uid: second.uid });
    assert.equal(ok.state, GroupAccessRequest_State.APPROVED);
  });

  it('refuses callers without the capability alike whether the request exists: no token, bound only in a subgroup, another organization', async () => {
    const fay = await person('fay@example.com');
    assert.equal((await as(fay.token).request(berth.orgUid)).status, 200);
    const existing = (await pendingOf(fay.uid)).uid;
    const teamOwner = await identityWithRole(berth.url, token, berth.orgUid, 'owner', sub);
    const stranger = await identityWithRole(berth.url, token, otherOrg, 'owner', otherOrg);
    for (const who of [teamOwner, stranger]) {
      const c = as(who.token);
      for (const r of [
        await c.list(berth.orgUid),
        await c.approve(existing),
        await c.approve(NO_SUCH(berth.orgUid)),
        await c.deny(existing),
        await c.deny(NO_SUCH(berth.orgUid)),
      ]) {
        assert.equal(r.status, 403, r.text);
      }
    }
    const anon = as(undefined);
    for (const r of [
      await anon.lookup(),
      await rest(berth.url, 'GET', '/iam/v2/groups:checkEligibility'),
      await anon.request(berth.orgUid),
      await anon.list(berth.orgUid),
      await anon.approve(existing),
      await anon.deny(existing),
    ]) {
      assert.equal(r.status, 401, r.text);
    }
    assert.equal((await pendingOf(fay.uid)).uid, existing, 'nothing decided');
    // A request goes with its requester's identity.
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/identities/${fay.uid}`, { token })).status, 200);
    assert.equal(await pendingOf(fay.uid), undefined);
    // The owner gets NOT_FOUND for a request that does not exist.
    assert.equal((await owner().approve(NO_SUCH(berth.orgUid))).status, 404);

    // Someone bound only in a subgroup may still ask to join the organization.
    const gus = await person('gus@example.com');
    const viewer = (await rest(berth.url, 'GET', '/iam/v2/roles?name=viewer', { token })).json.roles[0].uid;
    assert.equal((await rest(berth.url, 'POST', `/iam/v2/roleBindings/${sub}`, { token, body: { identityUid: gus.uid, roleUid: viewer } })).status, 200);
    assert.equal(await as(gus.token).eligible(), true);
    // Asking another organization, or one that does not exist, is the same NOT_FOUND.
    for (const group of [otherOrg, NO_SUCH(otherOrg), sub]) {
      const r = await as(gus.token).request(group);
      assert.equal(r.status, 404, r.text);
      assert.equal(r.json.details[1].resourceType, 'iam.berth.dev/Group');
    }
    // The other organization's owner sees none of this organization's requests.
    assert.deepEqual((await as(stranger.token).list(otherOrg)).json.groupAccessRequests, []);
  });

  it('updateIdentityMetadata changes the caller’s own metadata only, partially or by mask', async () => {
    const hal = await person('hal@example.com');
    const patch = (body: unknown, tok: string | undefined = hal.token, query = '') =>
      rest(berth.url, 'PATCH', `/iam/v2/identities:updateIdentityMetadata${query}`, { token: tok, body });
    const first = await patch({ identityMetadata: { company: 'Acme', jobTitle: 'SRE', updatesOptIn: true, uid: 'x', name: 'evil' } });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.uid, hal.uid);
    assert.equal(first.json.name, hal.name);
    assert.equal(first.json.company, 'Acme');
    assert.equal(first.json.jobTitle, 'SRE');
    assert.equal(first.json.updatesOptIn, true);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/identities/${hal.uid}`, { token })).json.company, 'Acme');

    const partial = await patch({ identityMetadata: { product: 'registry' } });
    assert.equal(partial.json.jobTitle, 'SRE');
    assert.equal(partial.json.product, 'registry');
    const masked = await patch({ identityMetadata: { selfServe: true }, updateMask: 'jobTitle,updates_opt_in,selfServe' });
    assert.equal(masked.status, 200, masked.text);
    assert.equal(masked.json.jobTitle ?? '', '');
    assert.equal(masked.json.updatesOptIn ?? false, false);
    assert.equal(masked.json.selfServe, true);
    assert.equal(masked.json.product, 'registry');

    // Nothing named: the current metadata, and no write.
    const current = await patch({ identityMetadata: {} });
    assert.deepEqual(current.json, masked.json);

    const got = await grpcClient(GroupsService, berth.url, hal.token).checkEligibility({});
    assert.equal(got.eligible, true);
    const { IdentitiesService } = await import('../../src/gen/berth/iam/v2/identities_pb.js');
    const viaGrpc = await grpcClient(IdentitiesService, berth.url, hal.token).updateIdentityMetadata({ identityMetadata: { utmSource: 'newsletter' } });
    assert.equal(viaGrpc.utmSource, 'newsletter');
    assert.equal(viaGrpc.company, 'Acme');

    const events = await sqlQuery(berth, 'select type, audience, group_uid from event_outbox where subject = $1 and type like $2', [hal.uid, '%metadata%']);
    assert.equal(events.length, 4);
    assert.deepEqual([...new Set(events.map((e) => `${e.type} ${e.audience} ${e.group_uid}`))], [`api.iam.identity.metadata.updated.v1 0 ${berth.orgUid}`]);
    // Another identity's metadata is untouched.
    const ivy = await person('ivy@example.com');
    const own = await patch({ identityMetadata: { product: 'apk' } }, ivy.token);
    assert.equal(own.json.uid, ivy.uid);
    assert.equal((await patch({ identityMetadata: { utmTerm: 'x' } })).json.product, 'registry');
    const anonymous = await rest(berth.url, 'PATCH', '/iam/v2/identities:updateIdentityMetadata', { body: { identityMetadata: { product: 'x' } } });
    assert.equal(anonymous.status, 401, anonymous.text);
  });

  it('bad input: every new parameter bounded, NUL refused, nothing changed', async () => {
    const jo = await person('jo@example.com');
    const patch = (body: unknown) => rest(berth.url, 'PATCH', '/iam/v2/identities:updateIdentityMetadata', { token: jo.token, body });
    const invalid = async (r: { status: number; text: string; json: { code: number } }, field?: RegExp) => {
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 3, r.text);
      if (field) assert.match(r.text, field);
    };
    await invalid(await patch({}), /identity_metadata/);
    await invalid(await patch({ identityMetadata: { company: 'c'.repeat(256) } }), /identity_metadata\.company/);
    await invalid(await patch({ identityMetadata: { jobTitle: 'j'.repeat(256) } }), /identity_metadata\.job_title/);
    await invalid(await patch({ identityMetadata: { latestFormSubmitUrl: `https://x/${'u'.repeat(2048)}` } }), /latest_form_submit_url/);
    await invalid(await patch({ identityMetadata: { product: 'a\u0000b' } }));
    await invalid(await patch({ identityMetadata: {}, updateMask: 'colour' }), /update_mask/);
    await invalid(await patch({ identityMetadata: { selfServe: 'yes' } }));
    assert.deepEqual(await sqlQuery(berth, 'select fields from identity_metadata where identity_uid = $1', [jo.uid]), []);

    const me = as(jo.token);
    await invalid(await rest(berth.url, 'POST', '/iam/v2/groups/not-a-uid:requestGroupAccess', { token: jo.token, body: {} }), /group_uid/);
    await invalid(await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}%00:requestGroupAccess`, { token: jo.token, body: {} }));
    const empty = await grpcCode(grpcClient(GroupsService, berth.url, jo.token).requestGroupAccess({ groupUid: '' }));
    assert.equal(empty, Code.InvalidArgument);
    assert.equal(await me.eligible(), true, 'no request was recorded');

    const o = owner();
    await invalid(await o.list('NOT/valid'));
    await invalid(await o.list(berth.orgUid, '?page_size=-1'));
    await invalid(await o.list(berth.orgUid, '?order_by=colour'));
    await invalid(await o.list(berth.orgUid, '?state=STATE_NO_SUCH'));
    await invalid(await o.list(berth.orgUid, '?page_token=garbage'));
    await invalid(await o.approve('not-a-uid'));
    await invalid(await o.approve(NO_SUCH(berth.orgUid), { roleUid: 'not a uid' }));
    await invalid(await o.approve(NO_SUCH(berth.orgUid), { roleUid: 7 }));
    await invalid(await o.deny(`${berth.orgUid}/\u0000`));
  });
});
