// ListEolTags over the public surface: endoflife.date files imported with
// `berth eol import` (nodejs v1, python v0), tags created through the API,
// each tag's stream, dates and statuses (active, in grace, expired, broken,
// unknown, latest, single track), the explicit mapping, paging, the name and
// date/epoch filters, the same answer over gRPC, and who sees what.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { EolGracePeriodStatus, EolTagStatus, RegistryService } from '../../src/gen/berth/registry/v1/registry_pb.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { type Berth, useBerth } from '../harness/berth-process.js';
import { sqlQuery } from '../harness/database.js';
import { seedImage } from '../harness/registry-content.js';
import { day, eolCli, nodejsV1, pythonV0 } from './eol-fixtures.js';

interface EolTag {
  id: string;
  name: string;
  mainPackageName?: string;
  tagStatus?: string;
  graceStatus?: string;
  gracePeriodExpiryDate?: string | null;
  mainPackageVersion: Record<string, unknown>;
}

/** endoflife.date's month arithmetic as the docs state it: eol + 6 calendar months, day clamped. */
function plus6(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const total = y * 12 + m - 1 + 6;
  const last = new Date(Date.UTC(Math.floor(total / 12), (total % 12) + 1, 0)).getUTCDate();
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

describe('ListEolTags', () => {
  let berth: Berth;
  let token: string;
  let nodeRepo: string;
  let pyRepo: string;
  let soloRepo: string;
  let mappedRepo: string;
  let plainRepo: string;

  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  const list = async (query: string, as = token) => {
    const r = await rest(berth.url, 'GET', `/registry/v1/eoltags?${query}`, { token: as });
    assert.equal(r.status, 200, r.text);
    return r.json as { items: EolTag[]; nextPageToken?: string };
  };
  const byName = async (repo: string) => new Map((await list(`uidp.childrenOf=${repo}&pageSize=200`)).items.map((t) => [t.name, t]));
  const repoWith = async (name: string, tags: string[]) => {
    const repo = (await rest(berth.url, 'POST', `/registry/v2/repos/${berth.orgUid}`, { token, body: { name } })).json.uid as string;
    const digest = await seedImage(berth, repo);
    for (const tag of tags) assert.equal((await rest(berth.url, 'POST', `/registry/v2/tags/${repo}`, { token, body: { name: tag, digest } })).status, 200);
    return repo;
  };

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-eol-'));
    writeFileSync(join(dir, 'nodejs'), JSON.stringify(nodejsV1())); // v1 path /api/v1/products/nodejs has no extension: named on the command line
    writeFileSync(join(dir, 'python.json'), JSON.stringify(pythonV0()));
    const imported = await eolCli(berth, ['import', join(dir, 'nodejs'), join(dir, 'python.json')]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /2 products, 10 releases read · \+2 added ~0 changed =0 unchanged/);
    const mapped = await eolCli(berth, ['map', 'snake', 'python']);
    assert.equal(mapped.code, 0, mapped.stderr);

    nodeRepo = await repoWith('acme/node', ['24.11.0-slim', '25', '23', '21.7.3', '16', '17.0.0', 'latest', 'latest-20250101', '24-r3', 'sha256-abc123']);
    pyRepo = await repoWith('python', ['3.12', '3.12-dev', '3.1.5', 'latest']);
    soloRepo = await repoWith('tools/nodejs', ['16.20.2', '16']);
    mappedRepo = await repoWith('lab/snake', ['3.13']);
    plainRepo = await repoWith('nginx', ['1.27']);
    // 21.7.3 was last rebuilt before its stream's EOL (ten days ago): its history says so.
    await sqlQuery(berth, 'update tag_history set update_time = $1 where repo_uid = $2 and tag_name = $3', [`${day(-40)}T00:00:00.000Z`, nodeRepo, '21.7.3']);
  });

  it('gives each tag its stream, dates and statuses', async () => {
    const tags = await byName(nodeRepo);
    const active = tags.get('24.11.0-slim')!;
    assert.equal(active.mainPackageName, 'nodejs');
    assert.equal(active.tagStatus, 'TAG_ACTIVE');
    assert.equal(active.graceStatus, 'GRACE_ELIGIBLE');
    assert.equal(active.gracePeriodExpiryDate, '2028-10-30T00:00:00.000Z');
    assert.deepEqual(active.mainPackageVersion, {
      version: '24',
      eolDate: '2028-04-30',
      releaseDate: '2025-05-06',
      exists: true,
      fips: false,
      lts: true,
      legacyLts: '2025-10-28',
      eolBroken: false,
      latestVersion: '24.11.0',
      versionSource: {
        ref: 'endoflife.date/v1/nodejs',
        sha: active.mainPackageVersion.versionSource && (active.mainPackageVersion.versionSource as { sha: string }).sha,
      },
    });
    assert.match((active.mainPackageVersion.versionSource as { sha: string }).sha, /^[0-9a-f]{64}$/);

    const grace = tags.get('23')!;
    assert.equal(grace.tagStatus, 'TAG_IN_GRACE');
    assert.equal(grace.graceStatus, 'GRACE_ACTIVE');
    assert.equal(grace.gracePeriodExpiryDate, `${plus6(day(-30))}T00:00:00.000Z`);
    assert.equal(grace.mainPackageVersion.eolDate, day(-30));

    const broken = tags.get('21.7.3')!;
    assert.equal(broken.tagStatus, 'TAG_INACTIVE');
    assert.equal(broken.graceStatus, 'GRACE_BROKEN');
    assert.equal(broken.mainPackageVersion.eolBroken, true);
    assert.equal(broken.mainPackageVersion.version, '21');

    const expired = tags.get('16')!;
    assert.equal(expired.tagStatus, 'TAG_INACTIVE');
    assert.equal(expired.graceStatus, 'GRACE_EXPIRED');
    assert.equal(expired.gracePeriodExpiryDate, '2024-03-11T00:00:00.000Z');

    const unknown = tags.get('17.0.0')!;
    assert.equal(unknown.mainPackageName, 'nodejs');
    assert.deepEqual(unknown.mainPackageVersion, {
      exists: false,
      version: '',
      eolDate: '',
      releaseDate: '',
      fips: false,
      lts: false,
      legacyLts: '',
      eolBroken: false,
      latestVersion: '',
    });
    assert.equal(unknown.tagStatus, 'TAG_ACTIVE');
    assert.equal(unknown.graceStatus, 'GRACE_NOT_ELIGIBLE');
    assert.equal(unknown.gracePeriodExpiryDate, undefined);

    for (const name of ['latest', '25']) {
      const t = tags.get(name)!;
      assert.equal(t.mainPackageVersion.version, '25', name);
      assert.equal(t.tagStatus, 'TAG_ACTIVE');
      assert.equal(t.graceStatus, 'GRACE_ELIGIBLE');
    }
    assert.equal(tags.get('latest-20250101')!.mainPackageVersion.version, '25');
    assert.equal(tags.get('24-r3')!.mainPackageVersion.version, '24');
  });

  it('matches v0 cycles on a component boundary', async () => {
    const tags = await byName(pyRepo);
    assert.equal(tags.get('3.12')!.mainPackageVersion.version, '3.12');
    assert.equal(tags.get('3.12-dev')!.mainPackageVersion.version, '3.12');
    assert.equal(
      tags.get('3.12')!.mainPackageVersion.versionSource && (tags.get('3.12')!.mainPackageVersion.versionSource as { ref: string }).ref,
      'endoflife.date/v0/python',
    );
    const old = tags.get('3.1.5')!;
    assert.equal(old.mainPackageVersion.version, '3.1');
    assert.equal(old.tagStatus, 'TAG_INACTIVE');
    assert.equal(old.graceStatus, 'GRACE_EXPIRED');
    assert.equal(tags.get('latest')!.mainPackageVersion.version, '3.13');
    assert.equal(tags.get('latest')!.mainPackageVersion.lts, false);
  });

  it('is not eligible for grace with a single release track; maps by explicit mapping; leaves unmapped repos without a product', async () => {
    const solo = await byName(soloRepo);
    assert.equal(solo.get('16')!.mainPackageName, 'nodejs');
    assert.equal(solo.get('16')!.tagStatus, 'TAG_INACTIVE');
    assert.equal(solo.get('16')!.graceStatus, 'GRACE_NOT_ELIGIBLE');
    assert.equal(solo.get('16')!.gracePeriodExpiryDate, undefined);
    const mapped = await byName(mappedRepo);
    assert.equal(mapped.get('3.13')!.mainPackageName, 'python');
    assert.equal(mapped.get('3.13')!.mainPackageVersion.eolDate, '2029-10-31');
    const plain = await byName(plainRepo);
    assert.equal(plain.get('1.27')!.mainPackageName, '');
    assert.equal(plain.get('1.27')!.mainPackageVersion.exists, false);
  });

  it('pages with pageSize and pageToken, and filters by name, dates and epochs', async () => {
    const all = (await list(`uidp.childrenOf=${nodeRepo}`)).items.map((t) => t.name);
    assert.equal(all.length, 9); // the referrer tag sha256-abc123 is left out
    assert.ok(!all.includes('sha256-abc123'));
    const paged: string[] = [];
    let token2 = '';
    for (let i = 0; i < 10; i++) {
      const page = await list(`uidp.childrenOf=${nodeRepo}&pageSize=4${token2 ? `&pageToken=${encodeURIComponent(token2)}` : ''}`);
      assert.ok(page.items.length <= 4);
      paged.push(...page.items.map((t) => t.name));
      token2 = page.nextPageToken ?? '';
      if (token2 === '') break;
    }
    assert.deepEqual(paged, all);
    assert.deepEqual(
      (await list(`uidp.childrenOf=${nodeRepo}&name=23`)).items.map((t) => t.name),
      ['23'],
    );
    const noDates = (await list(`uidp.childrenOf=${nodeRepo}&excludeDates=true`)).items.map((t) => t.name);
    assert.ok(!noDates.includes('latest-20250101') && noDates.includes('24-r3'));
    const noEpochs = (await list(`uidp.childrenOf=${nodeRepo}&excludeEpochs=true`)).items.map((t) => t.name);
    assert.ok(noEpochs.includes('latest-20250101') && !noEpochs.includes('24-r3'));
    const bad = await rest(berth.url, 'GET', `/registry/v1/eoltags?uidp.childrenOf=${nodeRepo}&pageSize=-1`, { token });
    assert.equal(bad.status, 400);
    const badToken = await rest(berth.url, 'GET', `/registry/v1/eoltags?uidp.childrenOf=${nodeRepo}&pageToken=nonsense`, { token });
    assert.equal(badToken.status, 400);
  });

  it('answers the same over gRPC', async () => {
    const client = grpcClient(RegistryService, berth.url, token);
    const r = await client.listEolTags({ uidp: { childrenOf: nodeRepo }, name: '23', pageSize: 10n });
    assert.equal(r.items.length, 1);
    assert.equal(r.items[0].tagStatus, EolTagStatus.TAG_IN_GRACE);
    assert.equal(r.items[0].graceStatus, EolGracePeriodStatus.GRACE_ACTIVE);
    assert.equal(r.items[0].mainPackageVersion?.version, '23');
  });

  it('shows only tags of repos the caller may list', async () => {
    const anonymous = await rest(berth.url, 'GET', `/registry/v1/eoltags?uidp.childrenOf=${nodeRepo}`);
    assert.equal(anonymous.status, 401);
    const sibling = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'eol-sibling' } })).json.uid as string;
    const neighbour = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', sibling);
    assert.deepEqual((await list(`uidp.childrenOf=${nodeRepo}`, neighbour.token)).items, []);
    assert.deepEqual((await list('', neighbour.token)).items, []);
    const otherOrg = (await rest(berth.url, 'POST', '/iam/v2/groups', { token, body: { name: `eol-other-${Date.now().toString(16)}` } })).json.uid as string;
    const stranger = await identityWithRole(berth.url, token, otherOrg, 'owner', otherOrg);
    assert.deepEqual((await list(`uidp.childrenOf=${nodeRepo}`, stranger.token)).items, []);
    const viewer = await identityWithRole(berth.url, token, berth.orgUid, 'viewer', berth.orgUid);
    assert.equal((await list(`uidp.childrenOf=${nodeRepo}`, viewer.token)).items.length, 9);
  });
});
