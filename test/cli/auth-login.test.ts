// Human sign in (`berth auth login --identity-provider`) against a real
// OpenID provider (oidc-provider, harness/oidc-provider.ts) and a real server:
// the CLI runs the authorization-code flow with PKCE through its loopback
// listener or --headless on stdin; the first sign in registers the user with
// the provider's default role; group mappings follow the groups claim at each
// sign in; a foreign state, a wrong nonce and a provider whose issuer is not
// the configured one are refused; status, token and logout.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { identityWithRole, ownerToken, rest } from '../harness/api-client.js';
import { BerthCli } from '../harness/berth-cli.js';
import { sqlQuery } from '../harness/database.js';
import { CLI, startBerth, type Berth } from '../harness/berth-process.js';
import { CLIENT_ID, startOidcProvider, type RealProvider } from '../harness/oidc-provider.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

interface Running {
  /** The authorization URL the CLI printed. */
  url: Promise<string>;
  write(line: string): void;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Runs the CLI with streamed stdin and stderr (the sign-in URL appears on stderr while it waits). */
function runLive(cli: BerthCli, args: string[]): Running {
  const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: cli.configDir };
  delete env.BERTH_API;
  delete env.BERTH_CREDENTIALS;
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let found: (u: string) => void;
  const url = new Promise<string>((r) => {
    found = r;
  });
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    const m = /^(http\S+\/auth\?\S+)$/m.exec(stderr);
    if (m) found(m[1]);
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) => child.once('close', (code) => r({ code, stdout, stderr })));
  void done.then((d) => found(`(exited ${d.code}) ${d.stderr}`));
  return { url, write: (line) => child.stdin.end(`${line}\n`), done };
}

describe('berth auth login through an identity provider', () => {
  let berth: Berth;
  let owner: string;
  let idp: RealProvider;
  let providerUid: string;
  let teamA: string;
  let teamB: string;
  let editorUid: string;
  let keyDir: string;
  const clis: BerthCli[] = [];
  const newCli = () => {
    const c = new BerthCli();
    clis.push(c);
    return c;
  };

  before(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'berth-login-key-'));
    const keyFile = join(keyDir, 'secrets.key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    berth = await startBerth({ extraArgs: ['--secrets-key-file', keyFile, '--allow-insecure-issuers'] });
    owner = ownerToken(berth.credentialsFile);
    idp = await startOidcProvider();
    const p = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${berth.orgUid}`, {
      token: owner,
      body: {
        name: 'corp-sso',
        defaultRole: VIEWER_UID,
        oidc: { issuer: idp.url, clientId: CLIENT_ID, clientSecret: idp.clientSecret, additionalScopes: ['groups'], groupsClaim: 'groups', pkceEnabled: true },
      },
    });
    assert.equal(p.status, 200, p.text);
    providerUid = p.json.uid;
    const group = async (name: string) =>
      (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name } })).json.uid as string;
    teamA = await group('team-a');
    teamB = await group('team-b');
    editorUid = (await rest(berth.url, 'GET', '/iam/v2/roles?name=editor', { token: owner })).json.roles[0].uid;
    for (const [externalGroupId, roleUid, scope] of [
      ['eng', editorUid, teamA],
      ['ops', VIEWER_UID, teamB],
    ]) {
      const m = await rest(berth.url, 'POST', `/iam/v2/externalGroupRoleMappings/${providerUid}`, { token: owner, body: { externalGroupId, roleUid, scope } });
      assert.equal(m.status, 200, m.text);
    }
  });
  after(async () => {
    for (const c of clis) c.dispose();
    await idp?.close();
    await berth?.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const bindingsOf = async (uid: string) =>
    (
      (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${uid}`, { token: owner })).json.roleBindings as {
        group: { uid: string };
        role: { uid: string };
      }[]
    )
      .map((b) => `${b.role.uid}@${b.group.uid}`)
      .sort();
  const lookup = async (sub: string) =>
    (await rest(berth.url, 'GET', `/iam/v2/identities:lookupIdentity?issuer=${encodeURIComponent(idp.url)}&subject=${sub}`, { token: owner })).json
      .uid as string;

  /** The loopback flow: the test's "browser" signs `sub` in and loads the redirect the CLI listens on. */
  async function browserLogin(cli: BerthCli, sub: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    idp.nextAccount = sub;
    const run = runLive(cli, ['auth', 'login', '--api', berth.url, '--identity-provider', providerUid, '--no-browser']);
    const back = await idp.browse(await run.url);
    const loaded = await fetch(back);
    assert.equal(loaded.status, 200, await loaded.text());
    return run.done;
  }

  it('first sign in registers the user with the default role and mapped groups; the next one follows the groups claim', async () => {
    const sub = `alice-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(sub, { name: 'Alice Example', email: `${sub}@example.com`, email_verified: true, groups: ['eng'] });
    const cli = newCli();
    const first = await browserLogin(cli, sub);
    assert.equal(first.code, 0, first.stderr);
    const uid = await lookup(sub);
    assert.match(first.stderr, new RegExp(`registered and logged in to .* as Alice Example \\(${uid}\\)`));
    const credFile = join(cli.configDir, 'credentials.json');
    assert.equal(statSync(credFile).mode & 0o777, 0o600);
    assert.deepEqual(await bindingsOf(uid), [`${VIEWER_UID}@${berth.orgUid}`, `${editorUid}@${teamA}`].sort());
    const [identity] = await sqlQuery(berth, 'select parent_uid, name, email, issuer, subject from identities where uid = $1', [uid]);
    assert.deepEqual({ ...identity }, { parent_uid: null, name: 'Alice Example', email: `${sub}@example.com`, issuer: idp.url, subject: sub });
    // Registration is an event, written with it: the provider's group, the new identity its subject and actor.
    const registered = async () =>
      (await sqlQuery(berth, "select group_uid, actor, body from event_outbox where type = 'api.auth.registered.v1' and subject = $1", [uid])).map((r) => ({
        group: r.group_uid,
        actor: JSON.parse(r.actor as string),
        body: JSON.parse(r.body as string),
      }));
    assert.deepEqual(await registered(), [{ group: berth.orgUid, actor: { subject: uid }, body: { identity: uid, group: berth.orgUid } }]);

    // Left eng, joined ops: editor on team-a goes, viewer on team-b comes; the default role stays.
    idp.accounts.set(sub, { ...idp.accounts.get(sub), groups: ['ops', 'unmapped'] });
    const second = await browserLogin(cli, sub);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /^logged in to /m);
    assert.equal((await registered()).length, 1, 'a later sign in registers nobody');
    assert.deepEqual(await bindingsOf(uid), [`${VIEWER_UID}@${berth.orgUid}`, `${VIEWER_UID}@${teamB}`].sort());

    // The session's token works and says who it is for.
    const token = (await cli.ok('auth', 'token')).trim();
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).status, 200);
    const status = JSON.parse(await cli.ok('auth', 'status', '-o', 'json'));
    assert.equal(status.identity, uid);
    assert.equal(status.name, 'Alice Example');
    assert.ok(Date.parse(status.tokenExpiry) > Date.now());
    assert.deepEqual(
      (status.bindings as { group: string; role: string; roleName: string }[]).map((b) => `${b.role}@${b.group}`).sort(),
      [`${VIEWER_UID}@${berth.orgUid}`, `${VIEWER_UID}@${teamB}`].sort(),
    );
    const table = await cli.ok('auth', 'status');
    assert.match(table, new RegExp(`Identity:\\s+${uid}`));
    assert.match(table, /viewer on team-b/);

    // A session also gets registry tokens (docker login, the credential helper): the refresh asks for that audience.
    const registryHost = new URL(berth.registryPublicUrl as string).host;
    const regToken = (await cli.ok('auth', 'token', '--audience', registryHost)).trim();
    assert.equal(JSON.parse(Buffer.from(regToken.split('.')[1], 'base64url').toString()).aud, registryHost);
    const basic = `Basic ${Buffer.from(`_token:${regToken}`).toString('base64')}`;
    const t = await fetch(`${berth.registryUrl}/token?scope=repository:${berth.orgName}/app:pull`, { headers: { authorization: basic } });
    assert.equal(t.status, 200);
    // and the API token still comes from the session afterwards
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token: (await cli.ok('auth', 'token')).trim() })).status, 200);
    const { refreshToken: current } = JSON.parse(readFileSync(credFile, 'utf8')) as { refreshToken: string };
    const foreign = await fetch(`${berth.url}/sts/exchange_refresh_token?aud=https://elsewhere.example`, {
      method: 'POST',
      headers: { authorization: `Bearer ${current}` },
    });
    assert.equal(foreign.status, 400, 'an audience Berth does not mint for is refused before the refresh token is spent');

    // Logout revokes the session: its refresh token no longer trades, and token says to log in.
    const { refreshToken } = JSON.parse(readFileSync(credFile, 'utf8')) as { refreshToken: string };
    await cli.ok('auth', 'logout');
    const refreshed = await fetch(`${berth.url}/sts/exchange_refresh_token`, { method: 'POST', headers: { authorization: `Bearer ${refreshToken}` } });
    assert.equal(refreshed.status, 401);
    assert.match(await cli.fails('auth', 'token'), /not logged in: run `berth auth login --identity-provider/);
  });

  it('--headless prints the URL and reads the redirect URL from stdin; a refresh rotates the saved session', async () => {
    const sub = `bob-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(sub, { name: 'Bob', groups: [] });
    idp.nextAccount = sub;
    const cli = newCli();
    const run = runLive(cli, ['auth', 'login', '--api', berth.url, '--identity-provider', providerUid, '--headless']);
    const back = await idp.browse(await run.url);
    assert.match(back, /^http:\/\/127\.0\.0\.1\/callback\?code=/);
    run.write(back);
    const done = await run.done;
    assert.equal(done.code, 0, done.stderr);
    const uid = await lookup(sub);
    assert.deepEqual(await bindingsOf(uid), [`${VIEWER_UID}@${berth.orgUid}`]);
    // Without a cached token, `auth token` trades the refresh token and saves the next one.
    const credFile = join(cli.configDir, 'credentials.json');
    const saved = JSON.parse(readFileSync(credFile, 'utf8')) as Record<string, string>;
    writeFileSync(credFile, JSON.stringify({ ...saved, token: undefined, tokenExpiry: undefined }), { mode: 0o600 });
    const token = (await cli.ok('auth', 'token')).trim();
    assert.equal((await rest(berth.url, 'GET', `/iam/v2/groups/${berth.orgUid}`, { token })).status, 200);
    const rotated = JSON.parse(readFileSync(credFile, 'utf8')) as Record<string, string>;
    assert.notEqual(rotated.refreshToken, saved.refreshToken);
    assert.equal(rotated.token, token);
    // Later logins reuse the API and provider of this one.
    idp.nextAccount = sub;
    const again = runLive(cli, ['auth', 'login', '--headless']);
    again.write(await idp.browse(await again.url));
    assert.equal((await again.done).code, 0);
  });

  it('refuses a callback with a foreign state', async () => {
    const sub = `carol-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(sub, { name: 'Carol' });
    idp.nextAccount = sub;
    const cli = newCli();
    const run = runLive(cli, ['auth', 'login', '--api', berth.url, '--identity-provider', providerUid, '--no-browser']);
    const back = new URL(await idp.browse(await run.url));
    back.searchParams.set('state', 'forged-state');
    assert.equal((await fetch(back)).status, 400);
    const done = await run.done;
    assert.equal(done.code, 1);
    assert.match(done.stderr, /another state/);
    assert.equal((await sqlQuery(berth, 'select uid from identities where uid = $1', [await lookup(sub)])).length, 0, 'nobody registered');
  });

  /** A code for `sub` obtained outside the CLI, with the nonce and verifier the test chose. */
  async function codeFor(p: RealProvider, sub: string, nonce: string, verifier: string): Promise<string> {
    p.nextAccount = sub;
    const u = new URL('/auth', p.url);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: 'http://127.0.0.1/callback',
      scope: 'openid email profile groups',
      state: 'some-state-value',
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      u.searchParams.set(k, v);
    return new URL(await p.browse(u.toString())).searchParams.get('code') as string;
  }
  const postLogin = (body: object) =>
    fetch(`${berth.url}/sts/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      json: (await r.json()) as { message?: string; token?: string },
    }));

  it('refuses an ID token without the nonce of the request, a wrong verifier, and a non-loopback redirect', async () => {
    const sub = `dave-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(sub, { name: 'Dave' });
    const verifier = randomBytes(32).toString('base64url');
    const base = { identityProvider: providerUid, codeVerifier: verifier, redirectUri: 'http://127.0.0.1/callback' };
    const tampered = await postLogin({ ...base, code: await codeFor(idp, sub, 'nonce-sent-by-the-cli', verifier), nonce: 'another-nonce-value' });
    assert.equal(tampered.status, 403, JSON.stringify(tampered.json));
    assert.match(tampered.json.message ?? '', /nonce/);
    const badVerifier = await postLogin({
      ...base,
      code: await codeFor(idp, sub, 'nonce-sent-by-the-cli', verifier),
      nonce: 'nonce-sent-by-the-cli',
      codeVerifier: 'x'.repeat(43),
    });
    assert.equal(badVerifier.status, 403, JSON.stringify(badVerifier.json));
    const web = await postLogin({ ...base, code: 'abc', nonce: 'nonce-sent-by-the-cli', redirectUri: 'https://evil.example/cb' });
    assert.equal(web.status, 400);
    assert.equal((await sqlQuery(berth, 'select uid from identities where uid = $1', [await lookup(sub)])).length, 0, 'nobody registered');
    // and the flow done right works
    const ok = await postLogin({ ...base, code: await codeFor(idp, sub, 'nonce-sent-by-the-cli', verifier), nonce: 'nonce-sent-by-the-cli' });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    const settings = await fetch(`${berth.url}/sts/login_settings?identityProvider=${encodeURIComponent(providerUid)}`).then((r) => r.json());
    assert.deepEqual(settings, {
      identityProvider: providerUid,
      issuer: idp.url,
      clientId: CLIENT_ID,
      scopes: ['openid', 'email', 'profile', 'groups'],
      pkceEnabled: true,
    });
    assert.equal((await fetch(`${berth.url}/sts/login_settings?identityProvider=${berth.orgUid}/0000000000000000`)).status, 404);
  });

  it("grants a provider's default role and its mappings' roles only while whoever set them could still bind them", async () => {
    // A delegate, owner of team-b only, configures a provider there: viewer by default, editor for "eng".
    const delegate = await identityWithRole(berth.url, owner, berth.orgUid, 'owner', teamB);
    const p = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${teamB}`, {
      token: delegate.token,
      body: {
        name: 'team-b-sso',
        defaultRole: VIEWER_UID,
        oidc: { issuer: idp.url, clientId: CLIENT_ID, clientSecret: idp.clientSecret, additionalScopes: ['groups'], pkceEnabled: true },
      },
    });
    assert.equal(p.status, 200, p.text);
    const m = await rest(berth.url, 'POST', `/iam/v2/externalGroupRoleMappings/${p.json.uid}`, {
      token: delegate.token,
      body: { externalGroupId: 'eng', roleUid: editorUid, scope: teamB },
    });
    assert.equal(m.status, 200, m.text);
    const verifier = randomBytes(32).toString('base64url');
    const signIn = async (sub: string) => {
      const nonce = `nonce-${randomBytes(8).toString('hex')}`;
      const code = await codeFor(idp, sub, nonce, verifier);
      const r = await postLogin({ identityProvider: p.json.uid, code, codeVerifier: verifier, nonce, redirectUri: 'http://127.0.0.1/callback' });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      return lookup(sub);
    };
    const early = `erin-${randomBytes(4).toString('hex')}`;
    const late = `fay-${randomBytes(4).toString('hex')}`;
    for (const s of [early, late]) idp.accounts.set(s, { name: s, groups: ['eng'] });
    const erin = await signIn(early);
    assert.deepEqual(await bindingsOf(erin), [`${VIEWER_UID}@${teamB}`, `${editorUid}@${teamB}`].sort());
    // The delegate loses team-b: its provider's promises lapse.
    const delegateBinding = (await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${encodeURIComponent(delegate.uid)}`, { token: owner })).json
      .roleBindings[0].uid;
    assert.equal((await rest(berth.url, 'DELETE', `/iam/v2/roleBindings/${delegateBinding}`, { token: owner })).status, 200);
    const fay = await signIn(late);
    assert.deepEqual(await bindingsOf(fay), [], 'registered, but neither the default role nor the mapping is granted');
    assert.equal(await signIn(early), erin);
    assert.deepEqual(await bindingsOf(erin), [`${VIEWER_UID}@${teamB}`], "the mapping's binding goes; the default binding made earlier is an ordinary one");
    // An owner setting the default role (the same one) vouches for it from then on.
    const reset = await rest(berth.url, 'PATCH', `/iam/v2/identityProviders/${p.json.uid}?updateMask=defaultRole`, {
      token: owner,
      body: { defaultRole: VIEWER_UID },
    });
    assert.equal(reset.status, 200, reset.text);
    const gil = `gil-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(gil, { name: gil, groups: ['eng'] });
    assert.deepEqual(await bindingsOf(await signIn(gil)), [`${VIEWER_UID}@${teamB}`]);
  });

  it('refuses a provider whose discovery document names another issuer', async () => {
    const liar = await startOidcProvider({ issuer: (url) => url.replace('127.0.0.1', 'localhost') });
    try {
      const p = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${berth.orgUid}`, {
        token: owner,
        body: { name: 'liar-sso', defaultRole: VIEWER_UID, oidc: { issuer: liar.url, clientId: CLIENT_ID, clientSecret: liar.clientSecret } },
      });
      assert.equal(p.status, 200, p.text);
      const cli = newCli();
      const refused = await cli.fails('auth', 'login', '--api', berth.url, '--identity-provider', p.json.uid, '--no-browser');
      assert.match(refused, /names issuer .*localhost.*refusing/);
      const sub = `erin-${randomBytes(4).toString('hex')}`;
      liar.accounts.set(sub, { name: 'Erin' });
      const verifier = randomBytes(32).toString('base64url');
      const server = await postLogin({
        identityProvider: p.json.uid,
        code: await codeFor(liar, sub, 'nonce-sent-by-the-cli', verifier),
        codeVerifier: verifier,
        redirectUri: 'http://127.0.0.1/callback',
        nonce: 'nonce-sent-by-the-cli',
      });
      assert.equal(server.status, 503, JSON.stringify(server.json));
      assert.match(server.json.message ?? '', /another issuer/);
    } finally {
      await liar.close();
    }
  });
});
