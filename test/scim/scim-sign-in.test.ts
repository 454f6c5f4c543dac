// SCIM and human sign in through the same provider (a real OpenID provider):
// a provisioned user signs in as the identity SCIM made, SCIM group
// membership counts beside the ID token's groups claim for the provider's
// mappings (and survives the next SCIM change), and a user the SCIM client
// deactivated is refused at sign in.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { type Berth, startBerth } from '../harness/berth-process.js';
import { CLIENT_ID, type RealProvider, startOidcProvider } from '../harness/oidc-provider.js';
import { enableScim, GROUP, PATCH_OP, type ScimClient, scimClient, USER } from './scim-client.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';

describe('SCIM and sign in through the same provider', () => {
  let berth: Berth;
  let owner: string;
  let idp: RealProvider;
  let keyDir: string;
  let provider: string;
  let scim: ScimClient;
  let teamA: string;
  let teamB: string;

  before(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'berth-scim-key-'));
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
    provider = p.json.uid;
    const group = async (name: string) =>
      (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name } })).json.uid as string;
    teamA = await group('team-a');
    teamB = await group('team-b');
    const editor = (await rest(berth.url, 'GET', '/iam/v2/roles?name=editor', { token: owner })).json.roles[0].uid;
    for (const [externalGroupId, scope] of [
      ['scim-eng', teamA],
      ['token-ops', teamB],
    ]) {
      const m = await rest(berth.url, 'POST', `/iam/v2/externalGroupRoleMappings/${provider}`, {
        token: owner,
        body: { externalGroupId, roleUid: editor, scope },
      });
      assert.equal(m.status, 200, m.text);
    }
    const on = await enableScim(berth.url, owner, provider);
    scim = scimClient(berth.url, on.endpoint, on.token);
  });
  after(async () => {
    await idp?.close();
    await berth?.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  /** Signs `sub` in through the provider's authorization-code flow, as the CLI does. */
  async function signIn(sub: string): Promise<{ status: number; json: { token?: string; message?: string } }> {
    idp.nextAccount = sub;
    const verifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(12).toString('hex');
    const u = new URL('/auth', idp.url);
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
    const code = new URL(await idp.browse(u.toString())).searchParams.get('code');
    const r = await fetch(`${berth.url}/sts/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identityProvider: provider, code, codeVerifier: verifier, redirectUri: 'http://127.0.0.1/callback', nonce }),
    });
    return { status: r.status, json: (await r.json()) as { token?: string; message?: string } };
  }
  const repoIn = (token: string, group: string) =>
    rest(berth.url, 'POST', `/registry/v2/repos/${group}`, { token, body: { name: `r-${randomBytes(4).toString('hex')}` } });

  it('sign in uses the identity SCIM made; SCIM groups and token groups both feed the mappings; deactivated users are refused', async () => {
    const sub = `scim-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(sub, { name: 'Sam', email: `${sub}@example.com`, email_verified: true, groups: ['token-ops'] });
    const user = await scim('POST', '/Users', { schemas: [USER], userName: `${sub}@example.com`, externalId: sub });
    assert.equal(user.status, 201, user.text);
    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'scim-eng', members: [{ value: user.json.id }] });
    assert.equal(group.status, 201, group.text);

    const signed = await signIn(sub);
    assert.equal(signed.status, 200, JSON.stringify(signed.json));
    const token = signed.json.token!;
    const me = await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${user.json.id}`, { token: owner });
    assert.equal(me.json.roleBindings.length, 3, 'default role, the SCIM group mapping and the token group mapping');
    assert.equal((await repoIn(token, teamA)).status, 200, 'from the SCIM group');
    assert.equal((await repoIn(token, teamB)).status, 200, 'from the groups claim');
    // A SCIM change keeps what the last sign in's token gave.
    const renamed = await scim('PATCH', `/Users/${user.json.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'displayName', value: 'Sam E.' }],
    });
    assert.equal(renamed.status, 200, renamed.text);
    const left = await scim('PATCH', `/Groups/${group.json.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members' }] });
    assert.equal(left.status, 200, left.text);
    assert.equal((await repoIn(token, teamA)).status, 403);
    assert.equal((await repoIn(token, teamB)).status, 200);

    const off = await scim('PATCH', `/Users/${user.json.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    assert.equal(off.status, 200, off.text);
    const refused = await signIn(sub);
    assert.equal(refused.status, 403, JSON.stringify(refused.json));
    assert.match(refused.json.message ?? '', /deprovisioned/);
  });
});
