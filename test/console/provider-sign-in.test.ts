// Signing in to the web console through an identity provider: the console
// asks Berth for the provider's authorization URL (GET /sts/login_authorize),
// the browser goes to the provider (a real OpenID provider) and comes back to
// /ui/callback, and the console redeems the code at POST /sts/login. The
// browser fetches nothing from the provider's origin by script: it only
// navigates there. Redirect URIs other than a loopback one or the console's
// own callback on Berth's public URL are refused before anyone is sent away.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ownerToken, rest } from '../harness/api-client.js';
import { type Berth, startBerth } from '../harness/berth-process.js';
import { CLIENT_ID, type RealProvider, startOidcProvider } from '../harness/oidc-provider.js';
import { type ConsoleBrowser, chromiumMissing, openBrowser, screenshot } from './browser.js';

const VIEWER_UID = '63921b2c44617e3f2603851537be0123af4a57d7';
const PUBLIC_URL = 'https://berth.example';

describe('web console sign in through an identity provider', { skip: chromiumMissing }, () => {
  let berth: Berth;
  let idp: RealProvider;
  let providerUid: string;
  let browser: ConsoleBrowser;
  let keyDir: string;

  before(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'berth-console-key-'));
    const keyFile = join(keyDir, 'secrets.key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    berth = await startBerth({ publicUrl: PUBLIC_URL, extraArgs: ['--secrets-key-file', keyFile, '--allow-insecure-issuers'] });
    idp = await startOidcProvider({ redirectUris: ['http://127.0.0.1/ui/callback'] });
    idp.accounts.set('alice', { name: 'Alice Example', email: 'alice@example.com', email_verified: true });
    idp.nextAccount = 'alice';
    const owner = ownerToken(berth.credentialsFile, berth.url);
    const p = await rest(berth.url, 'POST', `/iam/v2/identityProviders/${berth.orgUid}`, {
      token: owner,
      body: { name: 'corp-sso', defaultRole: VIEWER_UID, oidc: { issuer: idp.url, clientId: CLIENT_ID, clientSecret: idp.clientSecret, pkceEnabled: true } },
    });
    assert.equal(p.status, 200, p.text);
    providerUid = p.json.uid;
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await idp?.close();
    await berth?.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const authorize = (redirectUri: string) => {
    const q = new URLSearchParams({ identityProvider: providerUid, redirectUri, state: 's'.repeat(16), nonce: 'n'.repeat(16), codeChallenge: 'c'.repeat(43) });
    return fetch(`${berth.url}/sts/login_authorize?${q}`);
  };

  it("names the provider's authorization URL for the console's callback on the public URL, and for nothing else", async () => {
    const ok = await authorize(`${PUBLIC_URL}/ui/callback`);
    assert.equal(ok.status, 200);
    const url = new URL(((await ok.json()) as { authorizationUrl: string }).authorizationUrl);
    assert.equal(url.origin, idp.url);
    assert.equal(url.searchParams.get('client_id'), CLIENT_ID);
    assert.equal(url.searchParams.get('redirect_uri'), `${PUBLIC_URL}/ui/callback`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    for (const bad of ['https://evil.example/ui/callback', `${PUBLIC_URL}/ui/other`, `${PUBLIC_URL}.evil.example/ui/callback`]) {
      const r = await authorize(bad);
      assert.equal(r.status, 400, bad);
      assert.match(((await r.json()) as { message: string }).message, /redirect/i);
    }
  });

  it('signs a person in through the provider and shows their organizations', async () => {
    const page = browser.page;
    await page.goto(`${berth.url}/ui/?identityProvider=${encodeURIComponent(providerUid)}`);
    assert.equal(await page.getByLabel('Identity provider uid').inputValue(), providerUid);
    await page.getByRole('button', { name: 'Sign in through the provider' }).click();
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.getByRole('link', { name: berth.orgName }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/ui/');
    await screenshot(page, 'provider-sign-in');
    const berthOrigin = new URL(berth.url).origin;
    const elsewhere = browser.requests.filter((u) => new URL(u).origin !== berthOrigin);
    assert.ok(elsewhere.length > 0, 'the browser went to the provider');
    assert.deepEqual(
      elsewhere.filter((u) => new URL(u).origin !== idp.url),
      [],
      'and nowhere else',
    );
  });
});
