// Berth as an OIDC issuer: discovery, JWKS, the token exchange for static-key
// and claim-match identities, audiences, and permission before existence.
import assert from 'node:assert/strict';
import { statSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { identityWithRole, rest } from '../harness/api-client.js';
import { fakeIssuer } from '../harness/oidc-issuer.js';

describe('authentication and access control', () => {
  let berth: Berth;
  let token: string;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--allow-insecure-issuers'] },
  );

  it('writes first-start credentials with mode 0600', () => {
    assert.equal(statSync(berth.credentialsFile).mode & 0o777, 0o600);
    const creds = JSON.parse(readFileSync(berth.credentialsFile, 'utf8'));
    assert.equal(creds.organization.name, 'example.com');
    assert.ok(creds.privateKey.d, 'the private key is in the file');
  });

  it('publishes discovery and keys that verify its tokens', async () => {
    const d = await rest(berth.url, 'GET', '/.well-known/openid-configuration');
    assert.equal(d.json.issuer, berth.url);
    // and where the registry is, for the CLI (pull tokens, the docker credential helper)
    assert.equal(d.json.berth_registry_url, berth.registryPublicUrl);
    assert.equal(d.json.berth_registry_audience, new URL(berth.registryPublicUrl as string).host);
    const jwks = createRemoteJWKSet(new URL(d.json.jwks_uri));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: berth.url, audience: berth.url });
    assert.equal(payload.sub, berth.ownerIdentity);
    assert.equal(Number(payload.exp) - Number(payload.iat), 3600);
    assert.equal(protectedHeader.alg, 'ES256');
    assert.deepEqual(d.json.id_token_signing_alg_values_supported, ['ES256']);
  });

  it('rejects missing, malformed, foreign-audience and unmatched tokens', async () => {
    assert.equal((await rest(berth.url, 'GET', '/iam/v2/groups', { token: 'not.a.jwt' })).status, 401);
    const sts = await rest(berth.url, 'POST', '/sts/exchange');
    assert.equal(sts.status, 401);
    assert.equal(sts.json.code, 16);
    const bogus = await rest(berth.url, 'GET', '/sts/exchange', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(bogus.status, 403, 'a Berth token matches no identity relationship');
    const badAud = await rest(berth.url, 'GET', `/sts/exchange?aud=${encodeURIComponent('https://elsewhere.example')}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(badAud.status, 400);
  });

  it('exchanges an external OIDC token for a claimMatch identity (GET and POST)', async () => {
    const ext = await fakeIssuer();
    try {
      const created = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
        token,
        body: { name: 'ci-bot', claimMatch: { issuer: ext.url, subject: 'repo:acme/app:ref:refs/heads/main' } },
      });
      assert.equal(created.status, 200, created.text);
      const idToken = await ext.sign('repo:acme/app:ref:refs/heads/main', berth.url);
      const viaGet = await rest(berth.url, 'GET', `/sts/exchange?identity=${created.json.uid}&aud=${encodeURIComponent(berth.url)}`, {
        headers: { authorization: `Bearer ${idToken}` },
      });
      assert.equal(viaGet.status, 200, viaGet.text);
      const viaPost = await rest(berth.url, 'POST', '/sts/exchange', {
        headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: `identity=${encodeURIComponent(created.json.uid)}`,
      });
      assert.equal(viaPost.status, 200, viaPost.text);
      // No role yet: authenticated, but may see nothing.
      const list = await rest(berth.url, 'GET', '/registry/v2/repos', { token: viaGet.json.token });
      assert.equal(list.status, 200);
      assert.equal(list.json.totalCount, '0');
      const wrongSub = await ext.sign('repo:acme/other', berth.url);
      const denied = await rest(berth.url, 'GET', `/sts/exchange?identity=${created.json.uid}`, { headers: { authorization: `Bearer ${wrongSub}` } });
      assert.equal(denied.status, 403);
    } finally {
      await ext.close();
    }
  });

  it('checks permission before existence', async () => {
    const team = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'team' } });
    const member = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', team.json.uid);
    const outside = `${berth.orgUid}/00000000000000aa`;
    const inside = `${team.json.uid}/00000000000000aa`;
    const o = await rest(berth.url, 'GET', `/registry/v2/repos/${outside}`, { token: member.token });
    assert.equal(o.status, 403, 'outside the caller’s scope: 403 whether or not it exists');
    assert.equal(o.json.code, 7);
    const i = await rest(berth.url, 'GET', `/registry/v2/repos/${inside}`, { token: member.token });
    assert.equal(i.status, 404, 'inside the scope: a missing repo is 404');
  });

  it('rejects an unknown enum value in a query', async () => {
    const r = await rest(berth.url, 'GET', '/iam/v2/identities?relationship_type=RELATIONSHIP_TYPE_BOGUS', { token });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 3);
  });

  it('refuses the token of an identity deleted after it was issued', async () => {
    const who = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    const before = await rest(berth.url, 'GET', '/iam/v2/groups', { token: who.token });
    assert.equal(before.status, 200, before.text);
    const del = await rest(berth.url, 'DELETE', `/iam/v2/identities/${who.uid}`, { token });
    assert.equal(del.status, 200, del.text);
    for (const path of ['/iam/v2/groups', `/iam/v2/groups/${berth.orgUid}`]) {
      const after = await rest(berth.url, 'GET', path, { token: who.token });
      assert.equal(after.status, 401, `${path}: ${after.text}`);
      assert.equal(after.json.code, 16);
    }
  });
});
