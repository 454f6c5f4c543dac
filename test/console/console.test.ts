// The web console in a real browser against a real server: sign in with a
// pasted token, walk every page (axe finds no serious or critical violation on
// any, each is photographed), create a group, a repository and a role binding,
// read a tag's digest history after two pushes, redeliver an event, see a 403
// as a message, work at phone width and by keyboard — and no request leaves
// the server's origin.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { identityWithRole, rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { skopeoMissing } from '../harness/skopeo.js';
import { pushToTag } from '../harness/tag-moves.js';
import { type ConsoleBrowser, chromiumMissing, openBrowser, screenshot, seriousViolations } from './browser.js';

describe('web console', { skip: chromiumMissing || skopeoMissing }, () => {
  let berth: Berth;
  let token: string;
  let browser: ConsoleBrowser;
  let receiver: EventReceiver;
  let viewer: { uid: string; token: string };
  let pushedRepo: string;
  const digests: string[] = [];
  useBerth(
    async (b, t) => {
      berth = b;
      token = t;
      const host = registryHost(b);
      const reg = cliToken(b, host).token;
      digests.push((await pushToTag(b, host, reg, 'web/app', 'stable', { layers: [1500] })).manifest.digest);
      digests.push((await pushToTag(b, host, reg, 'web/app', 'stable', { layers: [2500] })).manifest.digest);
      pushedRepo = (await rest(b.url, 'GET', '/registry/v2/repos?name=web%2Fapp', { token })).json.repos[0].uid;
      const readme = '# Web app\n\nRun it.\n\n<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">';
      await rest(b.url, 'PATCH', `/registry/v2/repos/${pushedRepo}/readme`, { token, body: { content: readme } });
      viewer = await identityWithRole(b.url, token, b.orgUid, 'viewer', b.orgUid);
      receiver = await EventReceiver.start(b.url);
      const sub = await rest(b.url, 'POST', `/events/v2/subscriptions/${b.orgUid}`, { token, body: { sink: receiver.sink('org', { group: b.orgUid }) } });
      assert.equal(sub.status, 200, sub.text);
      await rest(b.url, 'POST', `/registry/v2/repos/${b.orgUid}`, { token, body: { name: 'web/evented' } }); // an event to deliver
      browser = await openBrowser();
    },
    { extraArgs: ['--allow-insecure-sinks'] },
  );
  after(async () => {
    await browser?.close();
    await receiver?.close();
  });

  const page = () => browser.page;
  const checkPage = async (name: string) => {
    await page().waitForLoadState('networkidle');
    assert.deepEqual(await seriousViolations(page()), [], `accessibility of ${name}`);
    await screenshot(page(), name);
  };

  it('serves the console at / with a strict Content-Security-Policy, and keeps API 404s', async () => {
    const index = await fetch(`${berth.url}/`);
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
    assert.equal(index.headers.get('cache-control'), 'no-cache');
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(asset, html);
    assert.match((await fetch(`${berth.url}${asset}`)).headers.get('cache-control') ?? '', /immutable/);
    assert.equal((await fetch(`${berth.url}/ui/repos/anything`)).headers.get('content-type'), 'text/html; charset=utf-8');
    const missing = await fetch(`${berth.url}/registry/v2/nothing`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: number }).code, 5);
  });

  it('signs in with a pasted token and shows the organization tree', async () => {
    await page().goto(`${berth.url}/`);
    await page().getByRole('heading', { name: 'Sign in to Berth' }).waitFor();
    await checkPage('sign-in');
    await page().getByLabel('Token').fill(token);
    await page().getByRole('button', { name: 'Sign in with this token' }).click();
    await page().getByRole('heading', { name: 'Organizations' }).waitFor();
    await page().getByRole('link', { name: berth.orgName }).waitFor();
    await page().getByRole('button', { name: 'New subgroup' }).first().click();
    await page()
      .getByLabel(/Name of the new group/)
      .fill('team-a');
    await page().getByRole('button', { name: 'Create', exact: true }).click();
    await page().getByRole('link', { name: 'team-a' }).waitFor();
    await checkPage('organizations');
    const teamRow = page()
      .locator('.group-row')
      .filter({ has: page().getByRole('link', { name: 'team-a' }) });
    await teamRow.getByRole('button', { name: 'Rename' }).click();
    await page().getByLabel('New name of team-a').fill('team-b');
    await page().getByRole('button', { name: 'Rename', exact: true }).last().click();
    await page().getByRole('link', { name: 'team-b' }).waitFor();
    page().once('dialog', (d) => void d.accept());
    await page()
      .locator('.group-row')
      .filter({ has: page().getByRole('link', { name: 'team-b' }) })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page().getByRole('link', { name: 'team-b' }).waitFor({ state: 'detached' });
    const left = await rest(berth.url, 'GET', `/iam/v2/groups?uidp.childrenOf=${berth.orgUid}`, { token });
    assert.deepEqual(left.json.groups, [], left.text);
  });

  it('creates a repository in a group and finds it by name', async () => {
    await page().getByRole('link', { name: berth.orgName }).click();
    await page().getByRole('heading', { name: berth.orgName }).waitFor();
    await page().getByLabel('Name', { exact: true }).fill('web/made-in-console');
    await page().getByRole('button', { name: 'Create repository' }).click();
    await page().getByRole('link', { name: 'web/made-in-console' }).waitFor();
    const made = await rest(berth.url, 'GET', '/registry/v2/repos?name=web%2Fmade-in-console', { token });
    assert.equal(made.json.repos.length, 1, 'the repository exists in the API');
    await page().getByLabel('Repository name').fill('web/app');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().getByRole('link', { name: 'web/made-in-console' }).waitFor({ state: 'detached' });
    await page().getByRole('link', { name: 'web/app' }).waitFor();
    assert.equal(await page().getByRole('row').count(), 2, 'the header and the one match');
    await checkPage('group');
  });

  it("shows a repository's sanitized readme, its tags and a tag's digest history after two pushes", async () => {
    await page().getByRole('link', { name: 'web/app' }).click();
    await page().getByRole('heading', { name: 'Web app' }).waitFor();
    assert.equal(await page().locator('.readme script').count(), 0);
    assert.equal(await page().locator('.readme img[onerror]').count(), 0);
    assert.equal(await page().evaluate('window.pwned'), undefined);
    await page().getByText('stable', { exact: true }).waitFor();
    await page()
      .getByText(/linux\/amd64/)
      .waitFor();
    await page().getByRole('button', { name: 'History' }).click();
    const timeline = page().getByRole('list', { name: 'Digest history of stable' });
    await timeline.waitFor();
    assert.deepEqual(await timeline.locator('code').allTextContents(), [...digests].reverse(), 'newest first');
    assert.equal(await timeline.getByRole('button', { name: /Copy digest/ }).count(), 2);
    await checkPage('repository');
  });

  it('shows an image digest: platforms, sizes, referrers, vulnerabilities and packages', async () => {
    await page()
      .getByRole('link', { name: /sha256:/ })
      .first()
      .click();
    await page().getByRole('heading', { name: 'Image' }).waitFor();
    await page().getByText(digests[1]).first().waitFor();
    await page().getByRole('cell', { name: 'linux/amd64' }).waitFor();
    await page().getByRole('heading', { name: 'Vulnerabilities' }).waitFor();
    await page().getByRole('heading', { name: 'Packages' }).waitFor();
    await checkPage('image');
  });

  it('creates and deletes a role binding, and creates an invite', async () => {
    await page().getByRole('link', { name: 'Access' }).click();
    await page().getByRole('heading', { name: 'Role bindings' }).waitFor();
    await page()
      .getByRole('option', { name: /viewer/ })
      .first()
      .waitFor({ state: 'attached' });
    await page().getByRole('option', { name: /svc-/ }).first().waitFor({ state: 'attached' });
    const form = page().getByRole('form', { name: 'New role binding' });
    const identityName = (await rest(berth.url, 'GET', `/iam/v2/identities/${viewer.uid}`, { token })).json.name as string;
    await form.getByLabel('Identity').selectOption({ label: identityName });
    await form.getByLabel('Role').selectOption({ label: 'registry.pull' });
    await form.getByRole('button', { name: 'Bind role' }).click();
    const remove = page().getByRole('button', { name: `Delete the binding of registry.pull to ${identityName}` });
    await remove.waitFor();
    const listed = await rest(berth.url, 'GET', `/iam/v2/roleBindings?identity=${viewer.uid}`, { token });
    assert.ok(
      listed.json.roleBindings.some((b: { role: { name: string } }) => b.role.name === 'registry.pull'),
      listed.text,
    );
    await remove.click();
    await remove.waitFor({ state: 'detached' });
    const invite = page().getByRole('form', { name: 'New invite' });
    await invite.getByLabel('Role').selectOption({ label: 'viewer' });
    await invite.getByRole('button', { name: 'Create invite' }).click();
    await page()
      .getByRole('status')
      .getByText(/Invite code/)
      .waitFor();
    await page()
      .getByText(/· expires 20\d\d-/)
      .waitFor(); // the new invite, listed
    await checkPage('access');
  });

  it('lists event subscriptions with their delivery log and redelivers', async () => {
    await page().getByRole('link', { name: 'Events' }).click();
    await page()
      .getByRole('link', { name: /^http:\/\/127\.0\.0\.1/ })
      .click();
    await page().getByRole('heading', { name: 'Delivery log' }).waitFor();
    const redeliver = page().getByRole('button', { name: 'Redeliver' }).first();
    await redeliver.waitFor();
    await redeliver.click();
    await page().waitForLoadState('networkidle');
    assert.equal(await page().getByRole('alert').count(), 0, await page().getByRole('alert').allTextContents().then(String));
    await checkPage('events');
  });

  it('searches advisories', async () => {
    await page().getByRole('link', { name: 'Advisories' }).click();
    await page().getByLabel('Search (CVE, package, image)').fill('CVE-2099-0001');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().getByText('No advisories found.').waitFor();
    await checkPage('advisories');
  });

  it("shows the API's 403 as a message", async () => {
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().getByLabel('Token').fill(viewer.token);
    await page().getByRole('button', { name: 'Sign in with this token' }).click();
    await page().getByRole('link', { name: berth.orgName }).click();
    await page().getByLabel('Name', { exact: true }).fill('web/not-allowed');
    await page().getByRole('button', { name: 'Create repository' }).click();
    const alert = page().getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /^Not allowed: .*permission/i);
    await checkPage('forbidden');
  });

  it('works at phone width and by keyboard', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await page().goto(`${berth.url}/ui/repos/${pushedRepo}`);
    await page().getByText('stable', { exact: true }).waitFor();
    const overflow = (await page().evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    await checkPage('repository-phone');
    await page().keyboard.press('Tab');
    assert.equal(await page().evaluate('document.activeElement?.textContent'), 'Skip to content');
    await page().keyboard.press('Tab');
    assert.equal(await page().evaluate('document.activeElement?.textContent'), 'Organizations');
    await page().keyboard.press('Enter');
    await page().getByRole('heading', { name: 'Organizations' }).waitFor();
    await page().setViewportSize({ width: 1280, height: 800 });
  });

  it('returns to the sign-in page when the token is refused', async () => {
    await page().evaluate("sessionStorage.setItem('berth.token', 'not-a-token')");
    await page().goto(`${berth.url}/ui/advisories`);
    await page().getByRole('heading', { name: 'Sign in to Berth' }).waitFor();
  });

  it('made no request off the origin', () => {
    const origin = new URL(berth.url).origin;
    assert.ok(browser.requests.length > 10);
    assert.deepEqual(
      browser.requests.filter((u) => new URL(u).origin !== origin),
      [],
    );
  });
});
