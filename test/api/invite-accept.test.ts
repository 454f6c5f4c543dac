// Accepting invites (POST /auth/v1/register, AuthService.Register): the role
// binding it makes and that it works at once; single-use codes consumed once
// even under concurrent accepts; expired, used, deleted and forged codes
// refused by name; identity scope; the email restriction; REST and gRPC.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { AuthService } from '../../src/gen/berth/auth/v1/auth_pb.js';
import { grpcClient, identityWithRole, ownerToken, rest } from '../harness/api-client.js';
import { CLI, useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { fakeIssuer } from '../harness/oidc-issuer.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

// biome-ignore lint/suspicious/noExplicitAny: error bodies are asserted on as loose JSON
function preconditionType(json: any): string | undefined {
  return json.details?.find((d: { '@type': string }) => d['@type'].endsWith('PreconditionFailure'))?.violations[0].type;
}

describe('accepting group invites', () => {
  let berth: Berth;
  let token: string;
  let sub: string;
  let repo: string;
  useBerth(
    async (b, t) => {
      berth = b;
      token = t;
      sub = (await rest(b.url, 'POST', `/iam/v2/groups/${b.orgUid}`, { token: t, body: { name: 'joiners' } })).json.uid;
      repo = (await rest(b.url, 'POST', `/registry/v2/repos/${sub}`, { token: t, body: { name: 'team-repo' } })).json.uid;
    },
    { extraArgs: ['--allow-insecure-issuers'] },
  );
  const newInvite = async (parent: string, body: Record<string, unknown> = {}) => {
    const r = await rest(berth.url, 'POST', `/iam/v2/groupInvites/${parent}`, { token, body: { roleUid: VIEWER_UID, ...body } });
    assert.equal(r.status, 200, r.text);
    return r.json as { uid: string; code: string; keyId: string };
  };
  const register = (tok: string | undefined, code: string) => rest(berth.url, 'POST', '/auth/v1/register', { token: tok, body: { code } });
  const member = () => identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);

  it('binds the role on the invite group, effective on the next request', async () => {
    const who = await member();
    assert.equal((await rest(berth.url, 'GET', `/registry/v2/repos/${repo}`, { token: who.token })).status, 403);
    const inv = await newInvite(sub);
    const r = await register(who.token, inv.code);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.identity, who.uid);
    assert.equal(r.json.group, sub);
    assert.equal(r.json.roleBinding.identity.uid, who.uid);
    assert.deepEqual(r.json.roleBinding.group, { uid: sub, name: 'joiners', description: '' });
    assert.equal(r.json.roleBinding.role.name, 'viewer');
    assert.match(r.json.roleBinding.uid, new RegExp(`^${sub}/[0-9a-f]{16}$`));
    assert.equal((await rest(berth.url, 'GET', `/registry/v2/repos/${repo}`, { token: who.token })).status, 200);
    const listed = await rest(berth.url, 'GET', `/iam/v2/roleBindings/${r.json.roleBinding.uid}`, { token });
    assert.deepEqual(listed.json, r.json.roleBinding);

    // Not single-use: others may join with it too; the same identity once.
    const other = await member();
    assert.equal((await register(other.token, inv.code)).status, 200);
    const again = await register(who.token, inv.code);
    assert.equal(again.status, 409, again.text);
    assert.equal((await register(undefined, inv.code)).status, 401);
  });

  it('consumes a single-use code exactly once under concurrent accepts', async () => {
    for (let round = 0; round < 3; round++) {
      const inv = await newInvite(sub, { singleUse: true });
      const racers = await Promise.all([member(), member(), member(), member()]);
      const results = await Promise.all(racers.map((w) => register(w.token, inv.code)));
      const won = results.filter((r) => r.status === 200);
      assert.equal(won.length, 1, results.map((r) => r.text).join('\n'));
      for (const r of results.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json.code, 9);
        assert.equal(preconditionType(r.json), 'INVITE_USED');
      }
      const bound = await sqlQuery(
        berth,
        `select identity_uid from role_bindings where parent_uid = $1 and identity_uid in (${racers.map((_, i) => `$${i + 2}`).join(', ')})`,
        [sub, ...racers.map((w) => w.uid)],
      );
      assert.deepEqual(
        bound.map((b) => b.identity_uid),
        [won[0].json.identity],
      );
      const winner = racers.find((w) => w.uid === won[0].json.identity)!;
      assert.equal(preconditionType((await register(winner.token, inv.code)).json), 'INVITE_USED');
      const stored = await sqlQuery(berth, 'select used_by from group_invites where uid = $1', [inv.uid]);
      assert.equal(stored[0].used_by, winner.uid);
    }
  });

  it('refuses an expired code', async () => {
    const inv = await newInvite(sub, { ttl: '60s' });
    await sqlQuery(berth, "update group_invites set expiration_time = '2001-02-03T04:05:06.007Z' where uid = $1", [inv.uid]);
    const who = await member();
    const r = await register(who.token, inv.code);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.code, 9);
    assert.equal(preconditionType(r.json), 'INVITE_EXPIRED');
    assert.match(r.json.message, /expired at 2001-02-03T04:05:06\.007Z/);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(who.uid)}`, { token })).json.totalCount, '0');
  });

  it('refuses an invite whose creator no longer holds its role there (or is gone), lists it as void, and honours it again once the creator does', async () => {
    // A delegate, owner of the team only, invites into the team; then loses its binding.
    const delegate = await identityWithRole(berth.url, token, berth.orgUid, 'owner', sub);
    const made = await rest(berth.url, 'POST', `/iam/v2/groupInvites/${sub}`, { token: delegate.token, body: { roleUid: VIEWER_UID } });
    assert.equal(made.status, 200, made.text);
    const stored = made.json.expirationTime as string;
    const delegateBinding = (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(delegate.uid)}`, { token })).json.roleBindings[0];
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${delegateBinding.uid}`, { token })).status, 200);
    const who = await member();
    const refused = await register(who.token, made.json.code);
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.json.code, 9);
    assert.equal(preconditionType(refused.json), 'INVITE_VOID');
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(who.uid)}`, { token })).json.totalCount, '0');
    // Listed and got as void: expired no later than the answer, though its own expiration lies ahead.
    const before = Date.now();
    const listed = (await rest(berth.url, 'GET', `/iam/v2/groupInvites?keyId=${made.json.keyId}`, { token })).json.groupInvites[0];
    const got = (await rest(berth.url, 'GET', `/iam/v2/groupInvites/${made.json.uid}`, { token })).json;
    for (const shown of [listed, got]) {
      assert.ok(Date.parse(shown.expirationTime) <= Date.now() && Date.parse(shown.expirationTime) >= before - 1000, shown.expirationTime);
      assert.ok(Date.parse(stored) > Date.now() + 3600_000);
    }
    // Bound again, the delegate's invite holds again, until its own expiration.
    const rebound = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${sub}`, {
      token,
      body: { identityUid: delegate.uid, roleUid: delegateBinding.role.uid },
    });
    assert.equal(rebound.status, 200, rebound.text);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groupInvites/${made.json.uid}`, { token })).json.expirationTime, stored);
    assert.equal((await register(who.token, made.json.code)).status, 200);
    // A deleted creator vouches for nothing.
    const gone = await identityWithRole(berth.url, token, berth.orgUid, 'owner', sub);
    const orphan = await rest(berth.url, 'POST', `/iam/v2/groupInvites/${sub}`, { token: gone.token, body: { roleUid: VIEWER_UID } });
    assert.equal(orphan.status, 200, orphan.text);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/identities/${gone.uid}`, { token })).status, 200);
    const late = await register((await member()).token, orphan.json.code);
    assert.equal(preconditionType(late.json), 'INVITE_VOID', late.text);
  });

  it('gives forged, mistyped and deleted codes one answer, and they consume nothing', async () => {
    const live = await newInvite(sub, { singleUse: true });
    const deleted = await newInvite(sub);
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/groupInvites/${deleted.uid}`, { token })).status, 200);
    const [, keyId, secret] = live.code.split('.');
    const flipped = `${secret[0] === 'A' ? 'B' : 'A'}${secret.slice(1)}`;
    const who = await member();
    const codes = [
      deleted.code,
      `binv1.${keyId}.${flipped}`, // the real key id with a forged secret
      `binv1.0123456789abcdef.${secret}`,
      'binv1.not-a-code',
      `${live.code} `,
      'x'.repeat(10_000),
    ];
    const answers = await Promise.all(codes.map((c) => register(who.token, c)));
    for (const a of answers) {
      assert.equal(a.status, 400, a.text);
      assert.deepEqual(a.json, answers[0].json);
    }
    assert.deepEqual(
      answers[0].json.details[1].fieldViolations.map((v: { field: string }) => v.field),
      ['code'],
    );
    assert.equal((await register(who.token, '')).status, 400);
    const ok = await register(who.token, live.code);
    assert.equal(ok.status, 200, `the live single-use code survived the forgeries: ${ok.text}`);
  });

  it('lets an identity join only within its scope; a root-level identity anywhere', async () => {
    const inv = await newInvite(berth.orgUid, { singleUse: true });
    const scoped = await identityWithRole(berth.url, token, sub, undefined, sub);
    const r = await register(scoped.token, inv.code);
    assert.equal(r.status, 400, r.text);
    assert.equal(preconditionType(r.json), 'IDENTITY_SCOPE');
    assert.equal((await register((await member()).token, inv.code)).status, 200, 'the refused accept did not consume the code');

    // A root-level identity (an owner made by `berth admin recover-owner`) joins another organization.
    const out = join(berth.dataDir, `recovered-${Date.now()}.json`);
    const args = [CLI, 'admin', 'recover-owner', '--data', berth.dataDir, '--org', berth.orgName, '--out', out, '--api', berth.url];
    if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
    const rec = spawnSync(process.execPath, args, { encoding: 'utf8' });
    assert.equal(rec.status, 0, rec.stderr);
    const rootToken = ownerToken(out, berth.url);
    const org = await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: `other-${Date.now()}.example` } });
    assert.equal(org.status, 200, org.text);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${org.json.uid}`, { token: rootToken })).status, 403);
    const there = await newInvite(org.json.uid);
    const joined = await register(rootToken, there.code);
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.json.group, org.json.uid);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${org.json.uid}`, { token: rootToken })).status, 200);
  });

  it("checks an email restriction against the caller's verified email", async () => {
    const ext = await fakeIssuer();
    try {
      const make = async (subject: string) => {
        const c = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
          token,
          body: { name: subject, claimMatch: { issuer: ext.url, subject } },
        });
        assert.equal(c.status, 200, c.text);
        return c.json.uid as string;
      };
      const exchange = async (uid: string, subject: string, claims: Record<string, unknown>) => {
        const idToken = await ext.sign(subject, berth.url, claims);
        const r = await rest(berth.url, 'GET', `/sts/exchange?identity=${encodeURIComponent(uid)}`, { headers: { authorization: `Bearer ${idToken}` } });
        assert.equal(r.status, 200, r.text);
        return r.json.token as string;
      };
      const kim = await make('kim');
      const kimToken = await exchange(kim, 'kim', { email: 'Kim@Example.com', email_verified: true });
      assert.equal((await rest(berth.url, 'GET', `/iam/v2/identities/${kim}`, { token })).json.email, 'Kim@Example.com');
      const lee = await make('lee');
      const leeToken = await exchange(lee, 'lee', { email: 'kim@example.com', email_verified: false });
      assert.equal((await rest(berth.url, 'GET', `/iam/v2/identities/${lee}`, { token })).json.email, '', 'an unverified email is not recorded');

      const inv = await newInvite(sub, { email: 'kim@example.com', singleUse: true });
      for (const tok of [leeToken, (await member()).token]) {
        const r = await register(tok, inv.code);
        assert.equal(r.status, 403, r.text);
        assert.doesNotMatch(r.json.message, /kim/i, 'the refusal does not reveal the address');
      }
      const ok = await register(kimToken, inv.code);
      assert.equal(ok.status, 200, ok.text);
    } finally {
      await ext.close();
    }
  });

  it('serves gRPC with the same behaviour', async () => {
    const who = await member();
    const client = grpcClient(AuthService, berth.url, who.token);
    const inv = await newInvite(sub, { singleUse: true });
    const session = await client.register({ code: inv.code });
    assert.equal(session.group, sub);
    assert.equal(session.roleBinding?.role?.name, 'viewer');
    const err = await client.register({ code: inv.code }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ConnectError);
    assert.equal(err.code, Code.FailedPrecondition);
  });
});
