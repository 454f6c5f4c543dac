// The SCIM token methods of IdentityProvidersService through REST and gRPC:
// generate (shown once, only its hash stored), regenerate (the previous token
// lives for the overlap), revoke, setScimEnabled with etags, the provider's
// scim state on Get, their events (never with the token), bad input, and
// permission before existence.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { IdentityProvider_SCIM_CredentialState as State, IdentityProvidersService } from '../../src/gen/berth/iam/v2/identity_providers_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { newProvider, scimClient } from './scim-client.js';

describe('SCIM token methods', () => {
  let berth: Berth;
  let owner: string;
  useBerth(async (b, t) => {
    berth = b;
    owner = t;
  });
  const call = (provider: string, verb: string, body: unknown, token = owner) =>
    rest(berth.url, 'POST', `/iam/v2/identityProviders/${provider}:${verb}`, { token, body });
  const scimState = async (provider: string) => (await rest(berth.url, 'GET', `/iam/v2/identityProviders/${provider}`, { token: owner })).json.scim;
  const works = async (endpoint: string, token: string) => (await scimClient(berth.url, endpoint, token)('GET', '/Users')).status;

  it('generate → enable → regenerate with overlap → revoke, over REST', async () => {
    const provider = await newProvider(berth.url, owner, berth.orgUid);
    const fresh = await scimState(provider);
    assert.equal(fresh.credentialState, 'CREDENTIAL_STATE_NOT_ISSUED');
    assert.equal(fresh.enabled, false);
    assert.equal(fresh.endpointUrl, `${berth.url}/scim/v2/${provider}`);

    const gen = await call(provider, 'generateScimToken', {});
    assert.equal(gen.status, 200, gen.text);
    assert.match(gen.json.token, /^berthscim_[0-9a-f]{64}$/);
    assert.equal(gen.json.identityProviderUid, provider);
    const year = Date.parse(gen.json.expireTime) - Date.now();
    assert.ok(year > 364 * 86400e3 && year <= 365 * 86400e3, gen.json.expireTime);
    // Only the hash is stored.
    const stored = await sqlQuery(berth, 'select token_hash from identity_provider_scim where provider_uid = $1', [provider]);
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0].token_hash, gen.json.token);
    assert.ok(!JSON.stringify(stored).includes(gen.json.token.slice(10)));
    // A second generate is refused; the first token stays.
    const twice = await call(provider, 'generateScimToken', {});
    assert.equal(twice.status, 400);
    assert.match(twice.text, /SCIM_TOKEN_EXISTS/);

    const live = await scimState(provider);
    assert.equal(live.credentialState, 'CREDENTIAL_STATE_LIVE');
    assert.equal(live.etag, gen.json.etag);
    assert.equal(await works(gen.json.endpointUrl, gen.json.token), 403, 'disabled until enabled');
    assert.equal((await call(provider, 'setScimEnabled', { enabled: true, etag: 'stale' })).status, 400);
    const on = await call(provider, 'setScimEnabled', { enabled: true, etag: gen.json.etag });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.json.enabled, true);
    assert.equal(await works(gen.json.endpointUrl, gen.json.token), 200);

    assert.equal((await call(provider, 'regenerateScimToken', { etag: gen.json.etag })).status, 400, 'the etag changed with setScimEnabled');
    const regen = await call(provider, 'regenerateScimToken', { etag: on.json.etag, overlap: '600s' });
    assert.equal(regen.status, 200, regen.text);
    assert.notEqual(regen.json.token, gen.json.token);
    assert.equal(regen.json.requestedOverlap, '600s');
    const overlapLeft = Date.parse(regen.json.previousTokenExpireTime) - Date.now();
    assert.ok(overlapLeft > 590e3 && overlapLeft <= 600e3);
    assert.equal((await scimState(provider)).credentialState, 'CREDENTIAL_STATE_ROTATING');
    assert.equal(await works(gen.json.endpointUrl, gen.json.token), 200, 'the previous token works during the overlap');
    assert.equal(await works(gen.json.endpointUrl, regen.json.token), 200);

    // Regenerate with no overlap: the previous token stops at once.
    const regen2 = await call(provider, 'regenerateScimToken', { etag: regen.json.etag, overlap: '0s', neverExpires: true });
    assert.equal(regen2.status, 200, regen2.text);
    assert.equal(regen2.json.expireTime, undefined);
    assert.equal(await works(gen.json.endpointUrl, regen.json.token), 401);
    assert.equal(await works(gen.json.endpointUrl, regen2.json.token), 200);

    const revoked = await call(provider, 'revokeScimToken', {});
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.json.enabled, true, 'revoking does not disable SCIM');
    assert.equal(await works(gen.json.endpointUrl, regen2.json.token), 401);
    assert.equal((await scimState(provider)).credentialState, 'CREDENTIAL_STATE_REVOKED');
    const noToken = await call(provider, 'regenerateScimToken', { etag: revoked.json.etag });
    assert.equal(noToken.status, 404);
    assert.equal((await call(provider, 'generateScimToken', {})).status, 200, 'a new first token after a revoke');

    // The events carry no token.
    const events = await sqlQuery(berth, "select type, body from event_outbox where type like '%scim%'", []);
    assert.ok(events.length >= 6, JSON.stringify(events.map((e) => e.type)));
    for (const e of events) assert.ok(!String(e.body).includes('berthscim_'), String(e.type));
  });

  it('the same over gRPC, with the scim state on Get', async () => {
    const provider = await newProvider(berth.url, owner, berth.orgUid);
    const client = grpcClient(IdentityProvidersService, berth.url, owner);
    const gen = await client.generateScimToken({ identityProviderUid: provider, neverExpires: true });
    assert.match(gen.token, /^berthscim_/);
    assert.equal(gen.expireTime, undefined);
    const got = await client.getIdentityProvider({ uid: provider });
    assert.equal(got.scim?.credentialState, State.LIVE);
    assert.equal(got.scim?.etag, gen.etag);
    const on = await client.setScimEnabled({ identityProviderUid: provider, enabled: true, etag: gen.etag });
    assert.equal(on.enabled, true);
    const regen = await client.regenerateScimToken({ identityProviderUid: provider, etag: on.etag });
    assert.equal(Number(regen.requestedOverlap?.seconds), 3600);
    const revoked = await client.revokeScimToken({ identityProviderUid: provider });
    assert.equal(revoked.identityProviderUid, provider);
    await assert.rejects(client.regenerateScimToken({ identityProviderUid: provider, etag: revoked.etag }), (e) => ConnectError.from(e).code === Code.NotFound);
  });

  it('bad input: expiry bounds, overlap bounds, missing etag, NUL and malformed uids', async () => {
    const provider = await newProvider(berth.url, owner, berth.orgUid);
    const past = new Date(Date.now() - 1000).toISOString();
    const far = new Date(Date.now() + 3 * 365 * 86400e3).toISOString();
    for (const body of [{ expireTime: past }, { expireTime: far }, { expireTime: far, neverExpires: true }, { neverExpires: 'yes' }]) {
      const r = await call(provider, 'generateScimToken', body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    const gen = await call(provider, 'generateScimToken', {});
    for (const body of [{ etag: gen.json.etag, overlap: '86401s' }, { etag: gen.json.etag, overlap: '-1s' }, { overlap: '1s' }]) {
      assert.equal((await call(provider, 'regenerateScimToken', body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await call(provider, 'setScimEnabled', { enabled: true })).status, 400);
    assert.equal((await call(provider, 'setScimEnabled', { enabled: true, etag: 'a\u0000b' })).status, 400);
    assert.equal((await call('not-a-uid', 'revokeScimToken', {})).status, 400);
    // Nothing changed.
    assert.equal((await scimState(provider)).etag, gen.json.etag);
  });

  it('checks permission before existence: a viewer, a caller bound only in a subgroup and another organization get 403 either way', async () => {
    const provider = await newProvider(berth.url, owner, berth.orgUid);
    const missing = `${berth.orgUid}/0123456789abcdef`;
    const sub = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'sub' } })).json.uid as string;
    const viewer = await identityWithRole(berth.url, owner, berth.orgUid, 'viewer', berth.orgUid);
    const subOwner = await identityWithRole(berth.url, owner, berth.orgUid, 'owner', sub);
    const otherOrg = (await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: 'scim-other-org' } })).json.uid as string;
    const stranger = await identityWithRole(berth.url, owner, otherOrg, 'owner', otherOrg);
    for (const who of [viewer, subOwner, stranger]) {
      for (const uid of [provider, missing]) {
        for (const verb of ['generateScimToken', 'revokeScimToken', 'setScimEnabled', 'regenerateScimToken']) {
          const r = await call(uid, verb, { etag: '0', enabled: true }, who.token);
          assert.equal(r.status, 403, `${verb} ${uid}: ${r.text}`);
        }
      }
    }
    assert.equal((await call(missing, 'generateScimToken', {})).status, 404);
    assert.equal((await rest(berth.url, 'POST', `/iam/v2/identityProviders/${provider}:revokeScimToken`, { body: {} })).status, 401);
  });
});
