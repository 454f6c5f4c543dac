// /iam/v1 beside /iam/v2, part 3: the v1 twins of the IAM methods issue 27
// added — Groups.LookupGroup, CheckEligibility and RequestGroupAccess; the
// identity providers' SCIM token methods and the v1 provider's `scim`; the
// legacy berth.events.v1.Identities (POST /iam/v1/identities, PATCH
// /iam/v1/identities/metadata). Each through REST and gRPC on the same data
// as its v2 twin, with who may call it and bad input. One server.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { Code } from '@connectrpc/connect';
import { exportJWK, generateKeyPair } from 'jose';
import { Identities as LegacyIdentities } from '../../src/gen/berth/events/v1/identities_pb.js';
import { Groups } from '../../src/gen/berth/iam/v1/groups_pb.js';
import { IdentityProvider_SCIM_CredentialState as State, IdentityProviders } from '../../src/gen/berth/iam/v1/identity_providers_pb.js';
import { exchangeStatic, grpcClient, grpcCode, identityWithRole, rest, type RestResult } from '../harness/api-client.js';
import { CLI, useBerth, type Berth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { newProvider, scimClient } from '../scim/scim-client.js';

describe('iam v1 twins of the access, SCIM token and metadata methods', () => {
  let berth: Berth;
  let token: string;
  useBerth((b, t) => {
    berth = b;
    token = t;
  });
  /** As the owner, another caller's token, or null for no token at all. */
  const api = (method: string, path: string, body?: unknown, as: string | null = token) => rest(berth.url, method, path, { token: as ?? undefined, body });
  const ok = (r: RestResult) => {
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const invalid = (r: RestResult, field: string) => {
    assert.equal(r.status, 400, r.text);
    const bad = r.json.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
    assert.ok(
      bad?.fieldViolations.some((v: { field: string }) => v.field === field),
      r.text,
    );
  };
  const group = async (name: string, parent = berth.orgUid) => ok(await api('POST', `/iam/v2/groups/${parent}`, { name })).uid as string;
  /** An identity of the organization without a binding, whose verified email (set as a sign in would) is `email`. */
  const person = async (email: string) => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    await sqlQuery(berth, 'update identities set email = $1 where uid = $2', [email, who.uid]);
    return who;
  };

  it('LookupGroup, CheckEligibility and RequestGroupAccess: v1 answers what v2 does, on the same requests', async () => {
    const args = [CLI, 'admin', 'verify-domain', 'twins.example', '--data', berth.dataDir, '--org', berth.orgName];
    if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
    const verified = spawnSync(process.execPath, args, { encoding: 'utf8' });
    assert.equal(verified.status, 0, verified.stderr);
    const ann = await person('ann@twins.example');
    const v1 = grpcClient(Groups, berth.url, ann.token);

    const v2Found = ok(await api('GET', '/iam/v2/groups:lookupGroup', undefined, ann.token)).group;
    assert.deepEqual(ok(await api('GET', '/iam/v1/groups:lookupGroup', undefined, ann.token)), {
      group: { id: berth.orgUid, name: v2Found.name, description: v2Found.description, verified: true },
    });
    assert.equal((await v1.lookupGroup({})).group?.id, berth.orgUid);
    assert.deepEqual(ok(await api('GET', '/iam/v1/groups:checkEligibility', undefined, ann.token)), { eligible: true });

    // Any group but the one found is NOT_FOUND, as in v2; the found one takes the request.
    const other = await group('twins-sub');
    assert.equal((await api('POST', `/iam/v1/groups/${other}:requestGroupAccess`, {}, ann.token)).status, 404);
    assert.deepEqual(ok(await api('POST', `/iam/v1/groups/${berth.orgUid}:requestGroupAccess`, {}, ann.token)), {});
    const pending = ok(await api('GET', `/iam/v2/groups/${berth.orgUid}:listAccessRequests?state=STATE_PENDING`)).groupAccessRequests;
    assert.deepEqual(
      pending.map((r: { identityUid: string; email: string }) => [r.identityUid, r.email]),
      [[ann.uid, 'ann@twins.example']],
    );
    // A second request, through either version and transport, is RESOURCE_EXHAUSTED; eligibility follows.
    assert.equal(await grpcCode(v1.requestGroupAccess({ groupId: berth.orgUid })), Code.ResourceExhausted);
    assert.equal((await api('POST', `/iam/v2/groups/${berth.orgUid}:requestGroupAccess`, {}, ann.token)).status, 429);
    assert.equal((await v1.checkEligibility({})).eligible, false);
    assert.equal(ok(await api('GET', '/iam/v2/groups:checkEligibility', undefined, ann.token)).eligible, false);

    // No verified email: NOT_FOUND and not eligible; no token: UNAUTHENTICATED.
    const bo = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    assert.equal((await api('GET', '/iam/v1/groups:lookupGroup', undefined, bo.token)).status, 404);
    assert.equal(await grpcCode(grpcClient(Groups, berth.url, bo.token).lookupGroup({})), Code.NotFound);
    assert.deepEqual(ok(await api('GET', '/iam/v1/groups:checkEligibility', undefined, bo.token)), { eligible: false });
    assert.equal((await api('GET', '/iam/v1/groups:lookupGroup', undefined, null)).status, 401);
    assert.equal((await api('POST', `/iam/v1/groups/${berth.orgUid}:requestGroupAccess`, {}, null)).status, 401);

    invalid(await api('POST', '/iam/v1/groups/not-a-uid:requestGroupAccess', {}, bo.token), 'group_id');
    assert.equal(await grpcCode(grpcClient(Groups, berth.url, bo.token).requestGroupAccess({ groupId: '' })), Code.InvalidArgument);
    assert.equal(await grpcCode(grpcClient(Groups, berth.url, bo.token).requestGroupAccess({ groupId: 'a\u0000' })), Code.InvalidArgument);
  });

  it('SCIM token methods through v1, on the state v2 reads, and the scim state in the v1 list', async () => {
    const folder = await group('twins-scim');
    const provider = await newProvider(berth.url, token, folder);
    const call = (verb: string, body: unknown, as = token) => api('POST', `/iam/v1/identityProviders/${provider}:${verb}`, body, as);
    const v1State = async () => ok(await api('GET', `/iam/v1/identityProviders?id=${encodeURIComponent(provider)}`)).items[0].scim;
    const v2State = async () => ok(await api('GET', `/iam/v2/identityProviders/${provider}`)).scim;
    assert.deepEqual(await v1State(), await v2State());
    assert.equal((await v1State()).credentialState, 'CREDENTIAL_STATE_NOT_ISSUED');

    const gen = ok(await call('generateScimToken', {}));
    assert.deepEqual(Object.keys(gen).sort(), ['endpointUrl', 'etag', 'expireTime', 'identityProviderId', 'token']);
    assert.match(gen.token, /^berthscim_[0-9a-f]{64}$/);
    assert.equal(gen.identityProviderId, provider);
    assert.equal((await v2State()).etag, gen.etag);
    assert.equal((await call('generateScimToken', {})).status, 400, 'a second first token is refused, as in v2');

    const on = ok(await call('setScimEnabled', { enabled: true, etag: gen.etag }));
    assert.deepEqual(on, { identityProviderId: provider, enabled: true, etag: on.etag });
    assert.equal((await scimClient(berth.url, gen.endpointUrl, gen.token)('GET', '/Users')).status, 200);

    const v1 = grpcClient(IdentityProviders, berth.url, token);
    const regen = await v1.regenerateScimToken({ identityProviderId: provider, etag: on.etag, overlap: { seconds: 0n } });
    assert.equal(regen.identityProviderId, provider);
    assert.equal(Number(regen.requestedOverlap?.seconds), 0);
    assert.equal((await scimClient(berth.url, gen.endpointUrl, gen.token)('GET', '/Users')).status, 401, 'no overlap: the old token stops');
    assert.equal((await scimClient(berth.url, gen.endpointUrl, regen.token)('GET', '/Users')).status, 200);
    const listed = (await v1.list({ id: provider })).items[0].scim;
    assert.deepEqual([listed?.credentialState, listed?.etag, listed?.enabled], [State.LIVE, regen.etag, true]);
    assert.deepEqual(await v1State(), await v2State());

    const revoked = ok(await call('revokeScimToken', {}));
    assert.deepEqual([revoked.identityProviderId, revoked.enabled], [provider, true]);
    assert.equal((await v2State()).credentialState, 'CREDENTIAL_STATE_REVOKED');
    const off = await v1.setScimEnabled({ identityProviderId: provider, enabled: false, etag: revoked.etag });
    assert.equal(off.enabled, false);
    assert.equal((await v2State()).enabled, false);

    // Permission before existence: a viewer, another organization's owner and no token get the same
    // answer for this provider as for one that does not exist.
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    const otherOrg = ok(await api('POST', '/iam/v2/groups', { name: `twins-other-${Date.now()}` })).uid;
    const stranger = await identityWithRole(berth.url, token, otherOrg, 'owner', otherOrg);
    const missing = `${folder}/00000000000000aa`;
    for (const [who, status] of [
      [viewer.token, 403],
      [stranger.token, 403],
      [null, 401],
    ] as const) {
      for (const uid of [provider, missing]) {
        assert.equal((await api('POST', `/iam/v1/identityProviders/${uid}:generateScimToken`, {}, who)).status, status, `${uid}`);
      }
    }
    assert.equal((await call('revokeScimToken', {})).status, 200, 'still the owner’s');
    assert.equal((await api('POST', `/iam/v1/identityProviders/${missing}:revokeScimToken`, {})).status, 404);

    invalid(await api('POST', '/iam/v1/identityProviders/not-a-uid:generateScimToken', {}), 'identity_provider_id');
    invalid(await call('regenerateScimToken', { etag: off.etag, overlap: '90000s' }), 'overlap');
    invalid(await call('setScimEnabled', { enabled: true }), 'etag');
    invalid(await call('generateScimToken', { expireTime: '2020-01-01T00:00:00Z' }), 'expire_time');
    assert.equal((await call('setScimEnabled', { enabled: 'yes', etag: off.etag })).status, 400);
  });

  it('legacy Identities.Create: an identity in the group `id` names, visible in v2, that exchanges tokens', async () => {
    const folder = await group('twins-legacy');
    const made = ok(await api('POST', '/iam/v1/identities', { id: folder, issuer: 'https://ci.example', subject: 'bot' }));
    assert.match(made.id, new RegExp(`^${folder}/[0-9a-f]{16}$`));
    assert.deepEqual(made, { id: made.id, subject: 'bot', issuer: 'https://ci.example', issuerKeys: '' });
    const v2 = ok(await api('GET', `/iam/v2/identities/${made.id}`));
    assert.deepEqual([v2.name, v2.claimMatch.issuer, v2.claimMatch.subject], ['legacy-identity', 'https://ci.example', 'bot']);
    // The same path with GET is still v1's List, and POST with a parent v1's Create.
    assert.deepEqual(
      ok(await api('GET', `/iam/v1/identities?id=${encodeURIComponent(made.id)}`)).items.map((i: { id: string }) => i.id),
      [made.id],
    );
    ok(await api('POST', `/iam/v1/identities/${folder}`, { name: 'plain', claimMatch: { issuer: 'https://ci.example', subject: 'x' } }));

    // With issuer_keys: a static-keys identity whose key signs an assertion /sts/exchange takes.
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const issuerKeys = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });
    const legacy = grpcClient(LegacyIdentities, berth.url, token);
    const keyed = await legacy.create({ id: folder, issuer: 'https://keys.example', subject: 'agent', issuerKeys });
    assert.equal(keyed.issuerKeys, issuerKeys);
    assert.ok(keyed.expiration, 'v2’s default expiration');
    assert.equal(ok(await api('GET', `/iam/v2/identities/${keyed.id}`)).staticKeys.subject, 'agent');
    const signed = await exchangeStatic(berth.url, keyed.id, 'https://keys.example', 'agent', { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'ES256' });
    assert.ok(signed.length > 0);

    // Who may: identity.create at the group, checked before the group is looked up.
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    const otherOrg = ok(await api('POST', '/iam/v2/groups', { name: `twins-legacy-other-${Date.now()}` })).uid;
    const body = (id: string) => ({ id, issuer: 'https://ci.example', subject: 'nope' });
    assert.equal((await api('POST', '/iam/v1/identities', body(folder), viewer.token)).status, 403);
    assert.equal((await api('POST', '/iam/v1/identities', body(`${folder}/00000000000000aa`), viewer.token)).status, 403);
    assert.equal((await api('POST', '/iam/v1/identities', body(folder), null)).status, 401);
    const stranger = await identityWithRole(berth.url, token, otherOrg, 'owner', otherOrg);
    assert.equal(await grpcCode(grpcClient(LegacyIdentities, berth.url, stranger.token).create(body(folder))), Code.PermissionDenied);

    invalid(await api('POST', '/iam/v1/identities', { issuer: 'https://ci.example', subject: 'bot' }), 'id');
    invalid(
      await api('POST', '/iam/v1/identities', { id: folder, issuer: 'https://ci.example', subject: 'bot', expiration: '2030-01-01T00:00:00Z' }),
      'expiration',
    );
    assert.equal((await api('POST', '/iam/v1/identities', { id: folder, issuer: 'not a url', subject: 'bot' })).status, 400);
    assert.equal(await grpcCode(legacy.create({ id: folder, issuer: 'https://keys.example', subject: 'a', issuerKeys: '{"keys":[]}' })), Code.InvalidArgument);
    const count = await sqlQuery(berth, "select count(*) as n from identities where name = 'legacy-identity'");
    assert.equal(Number(count[0].n), 2, 'refused creates wrote nothing');
  });

  it('legacy Identities.UpdateMetadata: the caller’s own metadata, the same record v2 changes', async () => {
    const me = await identityWithRole(berth.url, token, berth.orgUid, undefined, berth.orgUid);
    const patch = (body: unknown, as: string | null = me.token) => api('PATCH', '/iam/v1/identities/metadata', body, as);
    const v2 = async (identityMetadata: unknown) => ok(await api('PATCH', '/iam/v2/identities:updateIdentityMetadata', { identityMetadata }, me.token));
    const first = ok(await patch({ onboardingQuestions: { companyName: 'Acme', product: 'images', providers: ['github'] }, updatesOptIn: true }));
    assert.deepEqual(first, { onboardingQuestions: { companyName: 'Acme', providers: [], product: 'images' }, name: first.name, updatesOptIn: true });
    const seen = await v2({ jobTitle: 'dev' });
    assert.deepEqual([seen.uid, seen.company, seen.product, seen.updatesOptIn, seen.jobTitle], [me.uid, 'Acme', 'images', true, 'dev']);
    assert.equal(ok(await api('GET', `/iam/v2/identities/${me.uid}`)).company, 'Acme');

    // Without onboarding questions only the opt-in changes (here to false); over gRPC.
    const legacy = grpcClient(LegacyIdentities, berth.url, me.token);
    const second = await legacy.updateMetadata({ updatesOptIn: false });
    assert.deepEqual([second.onboardingQuestions?.companyName, second.onboardingQuestions?.product, second.updatesOptIn], ['Acme', 'images', false]);
    const after = await v2({});
    assert.deepEqual([after.company, after.jobTitle, after.updatesOptIn], ['Acme', 'dev', false]);
    // Questions sent replace company and product, empty ones included.
    const third = ok(await patch({ onboardingQuestions: { product: 'libraries' } }));
    assert.deepEqual(third.onboardingQuestions, { companyName: '', providers: [], product: 'libraries' });

    assert.equal((await patch({}, null)).status, 401);
    // Violations name v2's fields, as every v1 twin's do.
    invalid(await patch({ onboardingQuestions: { companyName: 'x'.repeat(300) } }), 'identity_metadata.company');
    invalid(await patch({ onboardingQuestions: { product: 'a\u0000' } }), 'onboarding_questions.product');
    assert.equal((await patch({ updatesOptIn: 'yes' })).status, 400);
    assert.equal((await v2({})).product, 'libraries', 'refused updates changed nothing');
  });
});
