// Federation through /sts/exchange against a real OpenID provider
// (oidc-provider, harness/oidc-provider.ts) and a second, untrusted one: every
// way an ID token can be wrong is refused; the identity is found without
// identity=<uid> when only one accepts; cap narrows what the token may do; and
// refresh tokens rotate, die once used, and revoke their chain when reused.
// (Replayed static-key assertions: sts-hardening.test.ts, on one and two instances.)
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { rest } from '../harness/api-client.js';
import { openBerthStore } from '../harness/registry-content.js';
import { startOidcProvider, type RealProvider } from '../harness/oidc-provider.js';

function b64(o: object): string {
  return Buffer.from(JSON.stringify(o)).toString('base64url');
}

describe('federation with a real OpenID provider', () => {
  let berth: Berth;
  let owner: string;
  let idp: RealProvider;
  let untrusted: RealProvider;
  useBerth(
    (b, t) => {
      berth = b;
      owner = t;
    },
    { extraArgs: ['--allow-insecure-issuers'] },
  );
  before(async () => {
    idp = await startOidcProvider();
    untrusted = await startOidcProvider();
  });
  after(async () => {
    await idp.close();
    await untrusted.close();
  });

  async function claimMatchIdentity(claimMatch: object, role = 'viewer'): Promise<string> {
    const r = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
      token: owner,
      body: { name: `ci-${Math.random().toString(16).slice(2)}`, claimMatch },
    });
    assert.equal(r.status, 200, r.text);
    const roles = await rest(berth.url, 'GET', `/iam/v2/roles?name=${role}`, { token: owner });
    const bound = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token: owner,
      body: { identityUid: r.json.uid, roleUid: roles.json.roles[0].uid },
    });
    assert.equal(bound.status, 200, bound.text);
    return r.json.uid as string;
  }

  const exchange = (idToken: string, query = '', init: RequestInit = {}) =>
    fetch(`${berth.url}/sts/exchange${query}`, { method: 'POST', ...init, headers: { authorization: `Bearer ${idToken}`, ...(init.headers ?? {}) } }).then(
      async (r) => ({ status: r.status, json: (await r.json()) as Record<string, unknown> }),
    );
  const subject = () => `repo:acme/app-${Math.random().toString(16).slice(2)}:ref:refs/heads/main`;

  it('exchanges a token of the provider by GET query and POST form, with repeatable aud and cap', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const idToken = await idp.sign({ sub, aud: berth.url });
    const got = await fetch(`${berth.url}/sts/exchange?identity=${uid}&aud[]=${encodeURIComponent(berth.url)}&cap=groups.list&cap=repo.list`, {
      headers: { authorization: `Bearer ${idToken}` },
    });
    assert.equal(got.status, 200);
    const body = (await got.json()) as { token: string; refreshToken: string; expiry: string };
    assert.match(body.refreshToken, /^berth_rt_/);
    assert.ok(Date.parse(body.expiry) > Date.now());
    const form = new URLSearchParams([
      ['aud', berth.url],
      ['cap', 'groups.list'],
      ['identityProvider', berth.orgUid],
    ]);
    const posted = await exchange(idToken, '', { body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(posted.status, 200, JSON.stringify(posted.json));
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token: posted.json.token as string })).status, 200);
    // an unknown capability name, a bad identityProvider, an audience Berth does not mint for
    assert.equal((await exchange(idToken, '?cap=no.such.cap')).status, 400);
    assert.equal((await exchange(idToken, '?identityProvider=..%2F')).status, 400);
    assert.equal((await exchange(idToken, '?aud=https://elsewhere.example')).status, 400);
  });

  it('uses the one identity that accepts without identity=, and refuses ambiguity naming none', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    // Identities with patterns are candidates only when named (identity=).
    const pattern = await claimMatchIdentity({ issuer: idp.url, subjectPattern: `^${sub}$` });
    const idToken = await idp.sign({ sub, aud: berth.url });
    const one = await exchange(idToken);
    assert.equal(one.status, 200, JSON.stringify(one.json));
    const who = JSON.parse(Buffer.from((one.json.token as string).split('.')[1], 'base64url').toString());
    assert.equal(who.sub, uid);
    assert.equal((await exchange(idToken, `?identity=${pattern}`)).status, 200);
    const other = await claimMatchIdentity({ issuer: idp.url, subject: sub, audience: berth.url });
    const two = await exchange(idToken);
    assert.equal(two.status, 400);
    const text = JSON.stringify(two.json);
    assert.match(text, /2 identities accept this token/);
    assert.ok(!text.includes(uid) && !text.includes(other), 'the error names no identity');
    assert.equal((await exchange(idToken, `?identity=${other}`)).status, 200);
  });

  it('refuses expired, not yet valid, wrong issuer, wrong audience, wrong key, alg none, HMAC and tampered tokens', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const q = `?identity=${uid}`;
    assert.equal((await exchange(await idp.sign({ sub, aud: berth.url }), q)).status, 200, 'the well-formed token is accepted');
    assert.equal((await exchange(await idp.sign({ sub, aud: berth.url }, { exp: -120 }), q)).status, 403, 'expired');
    assert.equal((await exchange(await idp.sign({ sub, aud: berth.url }, { nbf: 600 }), q)).status, 403, 'not yet valid');
    assert.equal((await exchange(await untrusted.sign({ sub, aud: berth.url }), q)).status, 403, 'another (untrusted) issuer');
    assert.equal((await exchange(await untrusted.sign({ sub, aud: berth.url }, { iss: idp.url }), q)).status, 403, 'signed by another key');
    assert.equal((await exchange(await idp.sign({ sub, aud: 'https://other.example' }), q)).status, 403, 'wrong audience');
    const good = await idp.sign({ sub, aud: berth.url });
    const [h, p, s] = good.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`;
    assert.equal((await exchange(none, q)).status, 403, 'alg none');
    const tampered = `${h}.${b64({ ...claims, sub: `${sub}x` })}.${s}`;
    assert.equal((await exchange(tampered, `?identity=${uid}`)).status, 403, 'tampered payload');
    // key confusion: HMAC keyed with the provider's public key material
    const jwks = (await (await fetch(`${idp.url}/jwks`)).json()) as { keys: { n: string }[] };
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: idp.kid }).sign(Buffer.from(jwks.keys[0].n));
    assert.equal((await exchange(hmac, q)).status, 403, 'HMAC');
  });

  it('narrows the token with cap: the identity could call the RPC, the narrowed token cannot', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const idToken = await idp.sign({ sub, aud: berth.url });
    const full = await exchange(idToken, `?identity=${uid}`);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token: full.json.token as string })).status, 200);
    const narrowed = await exchange(idToken, `?identity=${uid}&cap=repo.list`);
    assert.equal(narrowed.status, 200);
    const refused = await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token: narrowed.json.token as string });
    assert.equal(refused.status, 403, refused.text);
    // a capability the identity does not hold is not gained by asking for it
    const wider = await exchange(idToken, `?identity=${uid}&cap=groups.delete&cap=groups.list`);
    const child = await rest(berth.url, 'DELETE', `/iam/v2/groups/${berth.orgUid}/0123456789abcdef`, { token: wider.json.token as string });
    assert.equal(child.status, 403);
    // and the refreshed token keeps the narrowing
    const refreshed = await refresh(narrowed.json.refreshToken as string);
    assert.equal(refreshed.status, 200);
    const token = (refreshed.json.token as { token: string }).token;
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).status, 403);
  });

  const refresh = (rt: string) =>
    fetch(`${berth.url}/sts/exchange_refresh_token`, { method: 'POST', headers: { authorization: `Bearer ${rt}` } }).then(async (r) => ({
      status: r.status,
      json: (await r.json()) as Record<string, unknown>,
    }));

  it('sees a changed claimMatch on the next exchange, and writes last-seen at most once a minute but a new verified email at once', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const created = (await rest(berth.url, 'GET', `/iam/v2/identities/${uid}`, { token: owner })).json;
    const first = await exchange(await idp.sign({ sub, aud: berth.url, email: 'ci@example.com', email_verified: true }), `?identity=${uid}`);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    const seen = (await rest(berth.url, 'GET', `/iam/v2/identities/${uid}`, { token: owner })).json;
    assert.ok(seen.lastSeenTime > created.lastSeenTime, `${seen.lastSeenTime} after ${created.lastSeenTime}`);
    assert.equal(seen.email, 'ci@example.com');
    // Within the minute: the same email does not write again; another verified one does.
    assert.equal((await exchange(await idp.sign({ sub, aud: berth.url, email: 'ci@example.com', email_verified: true }), `?identity=${uid}`)).status, 200);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/identities/${uid}`, { token: owner })).json.lastSeenTime, seen.lastSeenTime);
    assert.equal((await exchange(await idp.sign({ sub, aud: berth.url, email: 'bot@example.com', email_verified: true }), `?identity=${uid}`)).status, 200);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/identities/${uid}`, { token: owner })).json.email, 'bot@example.com');
    // The identity now expects another subject: the old subject's token is refused on the very next exchange.
    const other = subject();
    const patched = await rest(berth.url, 'PATCH', `/iam/v2/identities/${uid}`, { token: owner, body: { claimMatch: { issuer: idp.url, subject: other } } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await exchange(await idp.sign({ sub, aud: berth.url }), `?identity=${uid}`)).status, 403);
    assert.equal((await exchange(await idp.sign({ sub: other, aud: berth.url }), `?identity=${uid}`)).status, 200);
  });

  it('rotates refresh tokens: a used one is dead, and reusing it revokes the whole chain', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const first = await exchange(await idp.sign({ sub, aud: berth.url }), `?identity=${uid}`);
    const rt1 = first.json.refreshToken as string;
    const r2 = await refresh(rt1);
    assert.equal(r2.status, 200, JSON.stringify(r2.json));
    const rt2 = (r2.json.refreshToken as { token: string }).token;
    const access = (r2.json.token as { token: string }).token;
    assert.notEqual(rt2, rt1);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token: access })).status, 200);
    assert.equal((await refresh(rt1)).status, 401, 'a used refresh token is dead');
    assert.equal((await refresh(rt2)).status, 401, 'its reuse revoked the newer one too');
    assert.equal((await refresh('berth_rt_forged')).status, 401);
  });

  it('seals refresh tokens instead of storing them: an exchange writes no row, and an altered or forged one is refused', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const other = await claimMatchIdentity({ issuer: idp.url, subject: subject() }, 'owner');
    const rt = (await exchange(await idp.sign({ sub, aud: berth.url }), `?identity=${uid}`)).json.refreshToken as string;
    const m = /^berth_rt_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(rt);
    assert.ok(m, rt);
    const grant = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as Record<string, unknown>;
    assert.equal(grant.i, uid);
    assert.equal(grant.g, 0);
    const store = await openBerthStore(berth);
    try {
      assert.equal(
        (
          await store.db
            .selectFrom('refresh_chains')
            .select('chain_id')
            .where('chain_id', '=', grant.c as string)
            .execute()
        ).length,
        0,
      );
      assert.equal((await store.db.selectFrom('refresh_tokens').select('id').where('identity_uid', '=', uid).execute()).length, 0);
    } finally {
      await store.close();
    }
    // The grant is readable but not writable: another identity, a later generation, a longer life, a changed MAC.
    for (const change of [{ i: other }, { g: 7 }, { e: (grant.e as number) + 86_400 }]) {
      assert.equal((await refresh(`berth_rt_${b64({ ...grant, ...change })}.${m[2]}`)).status, 401, JSON.stringify(change));
    }
    const flipped = `${m[2].slice(0, -2)}${m[2].at(-2) === 'A' ? 'B' : 'A'}${m[2].at(-1)}`;
    assert.equal((await refresh(`berth_rt_${m[1]}.${flipped}`)).status, 401);
    assert.equal((await refresh(`berth_rt_${m[1]}`)).status, 401);
    // The real one still rotates (none of the attempts above spent it), once.
    const r = await refresh(rt);
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const next = (r.json.refreshToken as { token: string }).token;
    assert.equal(JSON.parse(Buffer.from(next.slice('berth_rt_'.length).split('.')[0], 'base64url').toString('utf8')).g, 1);
    assert.equal((await refresh(rt)).status, 401);
  });

  it('lets only one of two simultaneous rotations of a refresh token win, and the loss revokes the chain', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const rt = (await exchange(await idp.sign({ sub, aud: berth.url }), `?identity=${uid}`)).json.refreshToken as string;
    const both = await Promise.all([refresh(rt), refresh(rt)]);
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 401]);
    const won = both.find((r) => r.status === 200)!;
    assert.equal((await refresh((won.json.refreshToken as { token: string }).token)).status, 401, "the winner's next token died with its chain");
  });

  it('still rotates a refresh token of the earlier stored form once, into the sealed form; its reuse revokes what it became', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const hash = (t: string) => createHash('sha256').update(t).digest('hex');
    // Rows of that time: keyed by the bare hash, or by the issue time (6 bytes, hex) before it.
    const bare = `berth_rt_${randomBytes(32).toString('base64url')}`;
    const stampedBytes = randomBytes(32);
    stampedBytes.writeUIntBE(Date.now(), 0, 6);
    const stamped = `berth_rt_${stampedBytes.toString('base64url')}`;
    const row = (id: string, chain: string) => ({
      id,
      chain_id: chain,
      identity_uid: uid,
      audience: berth.url,
      narrowing: '{}',
      used: 0,
      expire_time: new Date(Date.now() + 3_600_000).toISOString(),
      create_time: new Date().toISOString(),
    });
    const store = await openBerthStore(berth);
    try {
      await store.db
        .insertInto('refresh_tokens')
        .values([row(hash(bare), 'legacy-chain-1'), row(`${stampedBytes.subarray(0, 6).toString('hex')}${hash(stamped)}`, 'legacy-chain-2')])
        .execute();
    } finally {
      await store.close();
    }
    const fromStamped = await refresh(stamped);
    assert.equal(fromStamped.status, 200, JSON.stringify(fromStamped.json));
    const r = await refresh(bare);
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const sealed = (r.json.refreshToken as { token: string }).token;
    assert.match(sealed, /^berth_rt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const access = (r.json.token as { token: string }).token;
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token: access })).status, 200);
    assert.equal((await refresh(bare)).status, 401, 'used once');
    assert.equal((await refresh(sealed)).status, 401, 'its reuse revoked its chain, in the sealed form too');
  });

  it('refuses the refresh token of a deleted identity, and its token', async () => {
    const sub = subject();
    const uid = await claimMatchIdentity({ issuer: idp.url, subject: sub });
    const first = await exchange(await idp.sign({ sub, aud: berth.url }), `?identity=${uid}`);
    const del = await rest(berth.url, 'DELETE', `/iam/v2/identities/${uid}`, { token: owner });
    assert.equal(del.status, 200, del.text);
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token: first.json.token as string })).status, 401);
    assert.equal((await refresh(first.json.refreshToken as string)).status, 401);
  });
});
