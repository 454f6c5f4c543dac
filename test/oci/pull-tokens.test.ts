// Pull tokens: `berth auth pull-token create` makes an identity bound to
// registry.pull and prints a username (its uid) and password (a long-lived JWT
// its static keys signed). skopeo logs in with them and pulls a private image,
// and cannot push; deleting the identity revokes them on the next request.
// Passwords signed with another key, for another audience, expired or
// outliving the identity's keys are refused, and so is an ordinary static-keys
// identity's one-shot assertion; a pull token is no STS assertion either.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli, cliEnv } from '../harness/cli-run.js';
import { writeImage, type WrittenImage } from '../harness/oci-layout.js';
import { basic, claimsOf, cliToken, registryHost, tokenGet, tokenPost } from '../harness/registry-client.js';
import { creds, skopeo, skopeoMissing, skopeoSession } from '../harness/skopeo.js';

/** The issuer every pull-token identity's static keys name (docs/registry.md). */
const PULL_TOKEN_ISSUER = 'berth:pull-token';
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));

interface PullToken {
  registry: string;
  username: string;
  password: string;
  expirationTime: string;
  name: string;
}

describe('pull tokens', () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let org: string;
  let layout: string;
  let image: WrittenImage;
  const configDir = tmp('pull-cli');

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  const ref = (tag: string) => `docker://${host}/${org}/private/app:${tag}`;
  const pullScope = () => `repository:${org}/private/app:pull,push`;

  before(async () => {
    host = registryHost(berth);
    org = berth.orgName;
    layout = tmp('pull-img');
    image = await writeImage(layout, 'v1', { layers: [2048] });
    if (skopeoMissing) return;
    const regToken = cliToken(berth, host).token;
    const pushed = await skopeo(['copy', '--preserve-digests', ...creds('dest', '_token', regToken), `oci:${layout}:v1`, ref('v1')]);
    assert.equal(pushed.code, 0, pushed.stderr);
  });

  async function createPullToken(...extra: string[]): Promise<PullToken> {
    const r = await berthCli(['auth', 'pull-token', 'create', '--credentials', berth.credentialsFile, '--api', berth.url, '-o', 'json', ...extra], {
      env: cliEnv(configDir),
    });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as PullToken;
  }

  const tokenStatus = async (user: string, password: string) => (await tokenGet(berth, [pullScope()], basic(user, password))).status;

  it('creates an identity in the organization with static keys for the registry host and a registry.pull binding', async () => {
    const before = Date.now();
    const t = await createPullToken('--ttl', '24h', '--name', 'ci-pull');
    assert.equal(t.registry, host);
    assert.equal(t.name, 'ci-pull');
    assert.match(t.username, new RegExp(`^${berth.orgUid}/[0-9a-f]{16}$`));

    const identity = await rest(berth.url, 'GET', `/iam/v2/identities/${t.username}`, { token: owner });
    assert.equal(identity.status, 200, identity.text);
    assert.equal(identity.json.name, 'ci-pull');
    const sk = identity.json.staticKeys;
    assert.equal(sk.issuer, PULL_TOKEN_ISSUER);
    assert.deepEqual(sk.audiences, [host]);
    assert.equal(Date.parse(sk.expirationTime), Date.parse(t.expirationTime));
    const day = 24 * 3600_000;
    assert.ok(Date.parse(t.expirationTime) > before + day - 60_000 && Date.parse(t.expirationTime) <= Date.now() + day, t.expirationTime);
    assert.ok(
      JSON.parse(sk.issuerKeys).keys.every((k: Record<string, unknown>) => k.d === undefined),
      'only the public key is stored',
    );

    const bindings = await rest(berth.url, 'GET', `/iam/v2/roleBindings?uidp.children_of=${berth.orgUid}&identity=${encodeURIComponent(t.username)}`, {
      token: owner,
    });
    assert.equal(bindings.status, 200, bindings.text);
    assert.deepEqual(
      bindings.json.roleBindings.map((b: { role: { name: string }; group: { uid: string } }) => [b.role.name, b.group.uid]),
      [['registry.pull', berth.orgUid]],
    );

    const claims = claimsOf(t.password);
    assert.equal(claims.iss, PULL_TOKEN_ISSUER);
    assert.equal(claims.sub, sk.subject);
    assert.equal(claims.aud, host);
    assert.equal(claims.exp * 1000, Date.parse(t.expirationTime));
  });

  it('prints the username, the password and how to log in and revoke', async () => {
    const r = await berthCli(['auth', 'pull-token', 'create', '--credentials', berth.credentialsFile, '--api', berth.url, '--ttl', '1h'], {
      env: cliEnv(configDir),
    });
    assert.equal(r.code, 0, r.stderr);
    const username = /username: (\S+)/.exec(r.stdout)?.[1];
    const password = /password: (\S+)/.exec(r.stdout)?.[1];
    assert.ok(username && password, r.stdout);
    assert.ok(r.stdout.includes(`docker login ${host} -u '${username}' --password-stdin`), r.stdout);
    assert.ok(r.stdout.includes(`berth iam identities delete ${username}`), r.stdout);
    assert.equal(await tokenStatus(username, password), 200);
  });

  it('can be created by an identity holding only registry.pull_token_creator', async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    const created = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
      token: owner,
      body: { name: 'token-maker', staticKeys: { issuer: 'https://ci.example', subject: 'token-maker', issuerKeys: JSON.stringify({ keys: [jwk] }) } },
    });
    assert.equal(created.status, 200, created.text);
    const roles = await rest(berth.url, 'GET', '/iam/v2/roles?name=registry.pull_token_creator', { token: owner });
    const bound = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token: owner,
      body: { identityUid: created.json.uid, roleUid: roles.json.roles[0].uid },
    });
    assert.equal(bound.status, 200, bound.text);
    const file = join(tmp('maker'), 'credentials.json');
    const privateKey = { ...(await exportJWK(pair.privateKey)), kid: 'k1', alg: 'ES256' };
    writeFileSync(
      file,
      JSON.stringify({
        api: berth.url,
        identity: created.json.uid,
        issuer: 'https://ci.example',
        subject: 'token-maker',
        privateKey,
        organization: { uid: berth.orgUid },
      }),
    );
    const r = await berthCli(['auth', 'pull-token', 'create', '--credentials', file, '-o', 'json'], { env: cliEnv(configDir) });
    assert.equal(r.code, 0, r.stderr);
    const t = JSON.parse(r.stdout) as PullToken;
    assert.equal(await tokenStatus(t.username, t.password), 200);
  });

  it('refuses a TTL beyond 365 days or that does not parse, and creates nothing', async () => {
    const listed = async () =>
      (await rest(berth.url, 'GET', `/iam/v2/identities?uidp.children_of=${berth.orgUid}&page_size=200`, { token: owner })).json.identities.length;
    const count = await listed();
    for (const ttl of ['8761h', '10x', '0s', '']) {
      const r = await berthCli(['auth', 'pull-token', 'create', '--credentials', berth.credentialsFile, '--api', berth.url, '--ttl', ttl], {
        env: cliEnv(configDir),
      });
      assert.equal(r.code, 1, ttl);
      assert.match(r.stderr, /--ttl must be a duration/);
    }
    assert.equal(await listed(), count);
  });

  it('lets skopeo log in with it, pull and inspect a private image, and not push', { skip: skopeoMissing }, async () => {
    const t = await createPullToken();
    const session = skopeoSession();
    const login = await session(['login', '--tls-verify=false', '-u', t.username, '--password-stdin', host], t.password);
    assert.equal(login.code, 0, login.stderr);

    const digest = await session(['inspect', '--tls-verify=false', '--format', '{{.Digest}}', ref('v1')]);
    assert.equal(digest.code, 0, digest.stderr);
    assert.equal(digest.stdout.trim(), image.manifest.digest);
    const back = tmp('pulled');
    const pulled = await session(['copy', '--preserve-digests', '--src-tls-verify=false', ref('v1'), `oci:${back}:v1`]);
    assert.equal(pulled.code, 0, pulled.stderr);
    const hex = image.layers[0].digest.split(':')[1];
    assert.deepEqual(readFileSync(join(back, 'blobs', 'sha256', hex)), readFileSync(join(layout, 'blobs', 'sha256', hex)));

    const push = await session(['copy', '--dest-tls-verify=false', `oci:${layout}:v1`, ref('by-pull-token')]);
    assert.notEqual(push.code, 0, 'a pull token cannot push');
    // The token service grants pull only, by GET and by the OAuth2 form containerd sends.
    const granted = await tokenGet(berth, [pullScope()], basic(t.username, t.password));
    assert.equal(granted.status, 200, granted.text);
    assert.deepEqual(claimsOf(granted.json.token).access[0].actions, ['pull']);
    assert.equal(claimsOf(granted.json.token).sub, t.username);
    const form = await tokenPost(berth, { grant_type: 'password', username: t.username, password: t.password, scope: pullScope() });
    assert.equal(form.status, 200, form.text);
    assert.equal(form.json.scope, `repository:${org}/private/app:pull`);
  });

  it('refuses a pull token after its identity is deleted: /token answers 401 and skopeo fails', { skip: skopeoMissing }, async () => {
    const t = await createPullToken();
    const session = skopeoSession();
    assert.equal((await session(['login', '--tls-verify=false', '-u', t.username, '--password-stdin', host], t.password)).code, 0);
    assert.equal((await session(['inspect', '--tls-verify=false', '--raw', ref('v1')])).code, 0);

    const deleted = await rest(berth.url, 'DELETE', `/iam/v2/identities/${t.username}`, { token: owner });
    assert.equal(deleted.status, 200, deleted.text);

    const refused = await tokenGet(berth, [pullScope()], basic(t.username, t.password));
    assert.equal(refused.status, 401);
    assert.equal(refused.json.errors[0].code, 'UNAUTHORIZED');
    const form = await tokenPost(berth, { grant_type: 'password', username: t.username, password: t.password, scope: pullScope() });
    assert.equal(form.status, 401);
    const inspect = await session(['inspect', '--tls-verify=false', '--raw', ref('v1')]);
    assert.notEqual(inspect.code, 0, 'the stored login no longer works');
    const relogin = await session(['login', '--tls-verify=false', '-u', t.username, '--password-stdin', host], t.password);
    assert.notEqual(relogin.code, 0);
  });

  describe('passwords that are not this identity’s pull token', () => {
    let key: CryptoKey;
    let uid: string;
    const subject = 'hand-made-pull-token';
    let keysExpire: number;

    const sign = (claims: JWTPayload, with_ = key) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign(with_);
    const now = () => Math.floor(Date.now() / 1000);
    const good = (over: JWTPayload = {}) => sign({ iss: PULL_TOKEN_ISSUER, sub: subject, aud: host, iat: now(), exp: now() + 3600, ...over });

    before(async () => {
      // A pull-token identity made by hand, so the test holds its private key.
      const pair = await generateKeyPair('ES256', { extractable: true });
      key = pair.privateKey;
      const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
      keysExpire = now() + 2 * 3600;
      const created = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
        token: owner,
        body: {
          name: 'hand-made-pull-token',
          staticKeys: {
            issuer: PULL_TOKEN_ISSUER,
            subject,
            issuerKeys: JSON.stringify({ keys: [jwk] }),
            expirationTime: new Date(keysExpire * 1000).toISOString(),
            audiences: [host],
          },
        },
      });
      assert.equal(created.status, 200, created.text);
      uid = created.json.uid;
      const roles = await rest(berth.url, 'GET', '/iam/v2/roles?name=registry.pull', { token: owner });
      const bound = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
        token: owner,
        body: { identityUid: uid, roleUid: roles.json.roles[0].uid },
      });
      assert.equal(bound.status, 200, bound.text);
    });

    it('accepts the well-formed one again and again (not single-use)', async () => {
      const password = await good();
      for (let i = 0; i < 3; i++) assert.equal(await tokenStatus(uid, password), 200);
      assert.equal(await tokenStatus(uid, await good({ exp: keysExpire })), 200, 'exp may equal the keys’ expiration');
    });

    it('refuses one signed with another key, for another audience, expired, outliving its keys, without exp, or for another subject', async () => {
      const other = (await generateKeyPair('ES256')).privateKey;
      const cases: [string, string][] = [
        ['another key', await sign({ iss: PULL_TOKEN_ISSUER, sub: subject, aud: host, iat: now(), exp: now() + 3600 }, other)],
        ['the API audience', await good({ aud: berth.url })],
        ['expired', await good({ iat: now() - 7200, exp: now() - 3600 })],
        ['outliving the keys', await good({ exp: keysExpire + 3600 })],
        ['no exp', await sign({ iss: PULL_TOKEN_ISSUER, sub: subject, aud: host, iat: now() })],
        ['another subject', await good({ sub: 'someone-else' })],
        ['another issuer', await good({ iss: 'https://ci.example' })],
        ['not a JWT', 'password'],
      ];
      for (const [what, password] of cases) {
        const r = await tokenGet(berth, [pullScope()], basic(uid, password));
        assert.equal(r.status, 401, what);
        assert.equal(r.json.errors[0].code, 'UNAUTHORIZED', what);
      }
    });

    it('refuses the right password under another username', async () => {
      const password = await good();
      const cli = await createPullToken();
      assert.equal(await tokenStatus(cli.username, password), 401, 'another pull token’s uid');
      assert.equal(await tokenStatus('_token', password), 401, 'a pull token is not a Berth token');
      assert.equal(await tokenStatus(`${berth.orgUid}/0000000000000000`, password), 401, 'no such identity');
    });

    it('is not an STS assertion: /sts/exchange refuses it', async () => {
      const password = await good();
      for (const aud of [berth.url, host]) {
        const r = await rest(berth.url, 'POST', `/sts/exchange?identity=${encodeURIComponent(uid)}&aud=${encodeURIComponent(aud)}`, {
          headers: { authorization: `Bearer ${password}` },
        });
        assert.equal(r.status, 403, r.text);
      }
      assert.equal(await tokenStatus(uid, password), 200, 'and it still works as a password');
    });
  });

  it('does not take an ordinary static-keys identity’s assertion as a password', async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    const created = await rest(berth.url, 'POST', `/iam/v2/identities/${berth.orgUid}`, {
      token: owner,
      body: {
        name: 'ordinary',
        staticKeys: { issuer: 'https://ci.example', subject: 'ordinary', issuerKeys: JSON.stringify({ keys: [jwk] }), audiences: [host] },
      },
    });
    assert.equal(created.status, 200, created.text);
    const uid = created.json.uid as string;
    const roles = await rest(berth.url, 'GET', '/iam/v2/roles?name=registry.pull', { token: owner });
    const bound = await rest(berth.url, 'POST', `/iam/v2/roleBindings/${berth.orgUid}`, {
      token: owner,
      body: { identityUid: uid, roleUid: roles.json.roles[0].uid },
    });
    assert.equal(bound.status, 200, bound.text);
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ jti: 'once' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://ci.example')
      .setSubject('ordinary')
      .setAudience(host)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(pair.privateKey);
    assert.equal(await tokenStatus(uid, assertion), 401);
    // The very assertion is a good one where it belongs: /sts/exchange takes it (once).
    const exchanged = await rest(berth.url, 'POST', `/sts/exchange?identity=${encodeURIComponent(uid)}&aud=${encodeURIComponent(host)}`, {
      headers: { authorization: `Bearer ${assertion}` },
    });
    assert.equal(exchanged.status, 200, exchanged.text);
  });
});
