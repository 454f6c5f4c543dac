// Which identities /sts/exchange tries without identity=<uid>: only those
// whose exact issuer and subject are the token's. Identities with issuer or
// subject patterns are tried only when named, so no organization's patterns
// can crowd out, or answer for, another organization's exchanges.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { type FakeIssuer, fakeIssuer } from '../harness/oidc-issuer.js';

describe('token exchange candidates without identity=', () => {
  let berth: Berth;
  let owner: string;
  let ext: FakeIssuer;
  // The fake issuer is on loopback.
  useBerth(
    (b, t) => {
      berth = b;
      owner = t;
    },
    { extraArgs: ['--allow-insecure-issuers'] },
  );
  before(async () => {
    ext = await fakeIssuer();
  });
  after(() => ext.close());

  const identity = async (parent: string, claimMatch: object) => {
    const r = await rest(berth.url, 'POST', `/iam/v2/identities/${parent}`, {
      token: owner,
      body: { name: `ci-${Math.random().toString(16).slice(2)}`, claimMatch },
    });
    assert.equal(r.status, 200, r.text);
    return r.json.uid as string;
  };
  const exchange = (idToken: string, query = '') => rest(berth.url, 'POST', `/sts/exchange${query}`, { headers: { authorization: `Bearer ${idToken}` } });

  it("are not crowded out by another organization's pattern identities", async () => {
    const other = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: `other-${Math.random().toString(16).slice(2)}` } });
    assert.equal(other.status, 200, other.text);
    for (let i = 0; i < 25; i++) await identity(other.json.uid, { issuerPattern: '.*', subjectPattern: '.*' });
    const victim = await identity(berth.orgUid, { issuer: ext.url, subject: 'repo:victim/app' });
    const r = await exchange(await ext.sign('repo:victim/app', berth.url));
    assert.equal(r.status, 200, r.text);
    const claims = JSON.parse(Buffer.from(String(r.json.token).split('.')[1], 'base64url').toString());
    assert.equal(claims.sub, victim, "the token is the victim identity's");
  });

  it('try a pattern identity only when it is named', async () => {
    const uid = await identity(berth.orgUid, { issuer: ext.url, subjectPattern: 'repo:acme/.*' });
    const idToken = await ext.sign('repo:acme/app', berth.url);
    const unnamed = await exchange(idToken);
    assert.equal(unnamed.status, 403, unnamed.text);
    const named = await exchange(idToken, `?identity=${uid}`);
    assert.equal(named.status, 200, named.text);
  });
});
