// Identities over REST and gRPC: CRUD, the contract's name error, relationship
// validation, list filters and deletion together with role bindings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { IdentitiesService } from '../../src/gen/berth/iam/v2/identities_pb.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';

const NAME_RULE = 'name must match "^[a-z0-9 ._-]{1,}$"';
const JWKS = JSON.stringify({
  keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }],
});

describe('iam identities', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('creates, gets, lists, patches and deletes an identity over REST', async () => {
    const body = { name: 'ci bot', description: 'ci', claimMatch: { issuer: 'https://token.actions.example', subject: 'repo:acme/app:ref:main' } };
    const created = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, { token, body });
    assert.equal(created.status, 200, created.text);
    assert.match(created.json.uid, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));
    assert.equal(created.json.lastSeenTime, created.json.createTime);
    assert.equal(created.json.claimMatch.issuer, body.claimMatch.issuer);
    assert.equal(created.json.claimMatch.subject, body.claimMatch.subject);
    const uid = created.json.uid as string;

    const got = await rest(berth.url, 'GET', `/iam/v2/identities/${uid}`, { token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, created.json);

    const patched = await rest(berth.url, 'PATCH', `/iam/v2/identities/${uid}`, { token, body: { description: 'changed' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.description, 'changed');
    assert.equal(patched.json.name, 'ci bot');
    assert.deepEqual(patched.json.claimMatch, created.json.claimMatch);

    const masked = await rest(berth.url, 'PATCH', `/iam/v2/identities/${uid}?updateMask=description`, {
      token,
      body: { name: 'ignored', description: 'masked' },
    });
    assert.equal(masked.json.name, 'ci bot');
    assert.equal(masked.json.description, 'masked');

    const relinked = await rest(berth.url, 'PATCH', `/iam/v2/identities/${uid}`, {
      token,
      body: { claimMatch: { issuer: 'https://other.example', subjectPattern: '^repo:acme/.*$' } },
    });
    assert.equal(relinked.status, 200, relinked.text);
    assert.equal(relinked.json.claimMatch.subjectPattern, '^repo:acme/.*$');

    // "*": every writable field from the body, the rest cleared (relationship too).
    const star = await rest(berth.url, 'PATCH', `/iam/v2/identities/${uid}?updateMask=*`, { token, body: { name: 'ci bot' } });
    assert.equal(star.status, 200, star.text);
    assert.equal(star.json.description ?? '', '');
    assert.equal(star.json.claimMatch, undefined);

    const listed = await rest(berth.url, 'GET', `/iam/v2/identities?name=${encodeURIComponent('ci bot')}`, { token });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.json.totalCount, '1');

    const del = await rest(berth.url, 'DELETE', `/iam/v2/identities/${uid}`, { token });
    assert.equal(del.status, 200, del.text);
    assert.equal(del.text, '{}');
    const gone = await rest(berth.url, 'GET', `/iam/v2/identities/${uid}`, { token });
    assert.equal(gone.status, 404);
    assert.equal(gone.json.code, 5);
    assert.ok(gone.json.details.some((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.ResourceInfo'));
  });

  for (const [label, body] of [
    ['missing', { description: 'no name' }],
    ['"Bad Name!"', { name: 'Bad Name!' }],
  ] as const) {
    it(`rejects a ${label} name with the contract's exact error`, async () => {
      const r = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, { token, body });
      assert.equal(r.status, 400);
      assert.deepEqual(r.json, {
        code: 3,
        message: `Invalid argument: name: ${NAME_RULE}`,
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_ARGUMENT', domain: 'iam.berth.dev' },
          { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'name', description: NAME_RULE }] },
        ],
      });
    });
  }

  it('looks up the deterministic uid of an issuer and subject, for any authenticated caller', async () => {
    const q = (issuer: string, subject: string) =>
      `/iam/v2/identities:lookupIdentity?issuer=${encodeURIComponent(issuer)}&subject=${encodeURIComponent(subject)}`;
    const a = await rest(berth.url, 'GET', q('https://accounts.example', 'user-1'), { token });
    assert.equal(a.status, 200, a.text);
    assert.match(a.json.uid, /^[0-9a-f]{40}$/);
    assert.deepEqual((await rest(berth.url, 'GET', q('https://accounts.example', 'user-1'), { token })).json, a.json);
    const other = await rest(berth.url, 'GET', q('https://accounts.example', 'user-2'), { token });
    assert.notEqual(other.json.uid, a.json.uid);
    // no collision by moving characters between the two parts
    const shifted = await rest(berth.url, 'GET', q('https://accounts.exampleu', 'ser-1'), { token });
    assert.notEqual(shifted.json.uid, a.json.uid);
    const g = await grpcClient(IdentitiesService, berth.url, token).lookupIdentity({ issuer: 'https://accounts.example', subject: 'user-1' });
    assert.equal(g.uid, a.json.uid);
    // a caller with no binding anywhere may ask too
    const nobody = (await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid)).token;
    assert.equal((await rest(berth.url, 'GET', q('https://accounts.example', 'user-1'), { token: nobody })).json.uid, a.json.uid);
    assert.equal((await rest(berth.url, 'GET', q('https://accounts.example', 'user-1'))).status, 401);
    const missing = await rest(berth.url, 'GET', '/iam/v2/identities:lookupIdentity?issuer=https://accounts.example', { token });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.details[1].fieldViolations[0].field, 'subject');
  });

  it('validates relationships', async () => {
    const post = (body: unknown) => rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, { token, body });
    const noSubject = await post({ name: 'a', claimMatch: { issuer: 'https://x.example' } });
    assert.equal(noSubject.status, 400, noSubject.text);
    const badPattern = await post({ name: 'a', claimMatch: { issuer: 'https://x.example', subjectPattern: '(' } });
    assert.equal(badPattern.status, 400, badPattern.text);
    const badJwks = await post({ name: 'a', staticKeys: { issuer: 'i', subject: 's', issuerKeys: '{"keys":[]}' } });
    assert.equal(badJwks.status, 400, badJwks.text);
    const tooLong = await post({
      name: 'a',
      staticKeys: { issuer: 'i', subject: 's', issuerKeys: JWKS, expirationTime: new Date(Date.now() + 400 * 86400e3).toISOString() },
    });
    assert.equal(tooLong.status, 400, tooLong.text);
    const past = await post({ name: 'a', staticKeys: { issuer: 'i', subject: 's', issuerKeys: JWKS, expirationTime: '2020-01-01T00:00:00Z' } });
    assert.equal(past.status, 400, past.text);
    const ok = await post({ name: 'static one', staticKeys: { issuer: 'i', subject: 's', issuerKeys: JWKS } });
    assert.equal(ok.status, 200, ok.text);
    const exp = Date.parse(ok.json.staticKeys.expirationTime);
    assert.ok(Math.abs(exp - (Date.now() + 365 * 86400e3)) < 60_000);
    const none = await post({ name: 'no relationship' });
    assert.equal(none.status, 200, none.text);
    const noParent = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}/0000000000000000`, { token, body: { name: 'x' } });
    assert.equal(noParent.status, 404, noParent.text);
  });

  it('filters by relationship type and uidp', async () => {
    const sub = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'ids-sub' } })).json.uid as string;
    const a = await rest(berth.url, 'POST', `/iam/v2/identities/${sub}`, {
      token,
      body: { name: 'claim', claimMatch: { issuer: 'https://i.example', subject: 's' } },
    });
    const b = await rest(berth.url, 'POST', `/iam/v2/identities/${sub}`, {
      token,
      body: { name: 'static', staticKeys: { issuer: 'i', subject: 's', issuerKeys: JWKS } },
    });
    const q = (s: string) => rest(berth.url, 'GET', `/iam/v2/identities?${s}`, { token });
    const uids = (r: { json: { identities?: { uid: string }[] } }) => (r.json.identities ?? []).map((i) => i.uid).sort();
    assert.deepEqual(uids(await q(`uidp.children_of=${sub}`)), [a.json.uid, b.json.uid].sort());
    assert.deepEqual(uids(await q(`uidp.descendants_of=${sub}&relationship_type=RELATIONSHIP_TYPE_STATIC`)), [b.json.uid]);
    assert.deepEqual(uids(await q(`uidp.descendants_of=${sub}&relationship_type=RELATIONSHIP_TYPE_CLAIM_MATCH`)), [a.json.uid]);
  });

  it('serves identities over gRPC', async () => {
    const client = grpcClient(IdentitiesService, berth.url, token);
    const id = await client.createIdentity({
      parent: berth.orgUid,
      identity: {
        name: 'grpc-id',
        relationship: { case: 'claimMatch', value: { iss: { case: 'issuer', value: 'https://g.example' }, sub: { case: 'subject', value: 'me' } } },
      },
    });
    const got = await client.getIdentity({ uid: id.uid });
    assert.equal(got.name, 'grpc-id');
    assert.equal(got.relationship.case, 'claimMatch');
    await assert.rejects(client.createIdentity({ parent: berth.orgUid, identity: { name: 'UPPER' } }), (err: unknown) => {
      assert.ok(err instanceof ConnectError);
      assert.equal(err.code, Code.InvalidArgument);
      return true;
    });
  });

  it('lets any caller read its own identity, and no other without identity.list there', async () => {
    // The root-level owner holds identity.list at its organization, not at its own uid.
    const own = await rest(berth.url, 'GET', `/iam/v2/identities/${berth.ownerIdentity}`, { token });
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.name, 'owner');
    const viaGrpc = await grpcClient(IdentitiesService, berth.url, token).getIdentity({ uid: berth.ownerIdentity });
    assert.equal(viaGrpc.uid, berth.ownerIdentity);
    const sub = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'self-read' } })).json.uid as string;
    const other = (await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: 'self-read-other.example' } })).json.uid as string;
    const unbound = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const subOwner = await identityWithRole(berth.url, token, berth.orgUid, 'owner', sub);
    const otherOwner = await identityWithRole(berth.url, token, other, 'owner', other);
    for (const who of [unbound, subOwner, otherOwner]) {
      const self = await rest(berth.url, 'GET', `/iam/v2/identities/${who.uid}`, { token: who.token });
      assert.equal(self.status, 200, self.text);
      assert.equal(self.json.uid, who.uid);
      for (const uid of [berth.ownerIdentity, unbound.uid === who.uid ? subOwner.uid : unbound.uid, `${berth.orgUid}/00000000000000ee`]) {
        const r = await rest(berth.url, 'GET', `/iam/v2/identities/${uid}`, { token: who.token });
        assert.equal(r.status, 403, `${uid}: ${r.text}`);
      }
    }
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/identities/${berth.ownerIdentity}`)).status, 401);
    const bad = await rest(berth.url, 'GET', `/iam/v2/identities/not-a-uid`, { token: unbound.token });
    assert.equal(bad.status, 400, bad.text);
  });

  it('deletes an identity together with its role bindings', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    const before = await rest(berth.url, 'GET', `/registry/v2/repos`, { token: who.token });
    assert.equal(before.status, 200, before.text);
    const del = await rest(berth.url, 'DELETE', `/iam/v2/identities/${who.uid}`, { token });
    assert.equal(del.status, 200, del.text);
    const bindings = await rest(berth.url, 'GET', `/iam/v2/roleBindings?uidp.children_of=${berth.orgUid}`, { token });
    assert.equal(bindings.status, 200, bindings.text);
    assert.ok(!JSON.stringify(bindings.json).includes(who.uid));
  });

  it('accepts update masks in snake_case as well as lowerCamelCase', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const keys = (await rest(berth.url, 'GET', `/iam/v2/identities/${who.uid}`, { token })).json.staticKeys;
    const body = { description: 'changed', company: 'ignored', staticKeys: { ...keys, subject: 'renamed' } };
    const snake = await rest(berth.url, 'PATCH', `/iam/v2/identities/${who.uid}?update_mask=description,static_keys`, { token, body });
    assert.equal(snake.status, 200, snake.text);
    assert.equal(snake.json.description, 'changed');
    assert.equal(snake.json.company, '');
    assert.equal(snake.json.staticKeys.subject, 'renamed');
    const camel = await rest(berth.url, 'PATCH', `/iam/v2/identities/${who.uid}?updateMask=company&updateMask=staticKeys`, {
      token,
      body: { ...body, company: 'acme' },
    });
    assert.equal(camel.status, 200, camel.text);
    assert.equal(camel.json.company, 'acme');
    const unknown = await rest(berth.url, 'PATCH', `/iam/v2/identities/${who.uid}?update_mask=no_such_field`, { token, body });
    assert.equal(unknown.status, 400, unknown.text);
  });
});
