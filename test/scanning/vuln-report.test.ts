// Berth's own vulnerability reports, end to end through the public surface:
// skopeo pushes an Alpine-like and a Debian-like image, `berth advisories
// import` brings secdb and OSV advisories for their packages, and the v1
// GetVulnReport answers with the expected matches (fix state and versions);
// an import that adds an advisory for one package changes that image's report
// (a new generation and a registry.vulnreport.updated.v1 event to a
// subscription; the changed package's matches spliced in, the same as a whole
// re-match of the image gives) and leaves the other's untouched (its
// generation does not move); an organization's private advisories show in its own report and
// never in another organization's report of the same image; callers without
// the capabilities at the repo learn nothing. SQLite, or PostgreSQL with
// BERTH_TEST_PG.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RegistryService } from '../../src/gen/berth/registry/v1/registry_pb.js';
import { MATCHER_VERSION } from '../../src/scanning/reports/berth-report.js';
import { grpcClient, identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli } from '../harness/cli-run.js';
import { EventReceiver } from '../harness/event-receiver.js';
import { writeImage, writeMultiArchImage } from '../harness/oci-layout.js';
import { cliToken, identityWithKeys, registryHost } from '../harness/registry-client.js';
import { alpineLayers, osRelease } from '../harness/scan-images.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';
import { generationOf, matchSummary, vulnReportPath, waitForVulnReport } from '../harness/vuln-report-wait.js';

const root = mkdtempSync(join(tmpdir(), 'berth-vulnreport-'));
const tmp = (p: string) => mkdtempSync(join(root, `${p}-`));

const DPKG_STATUS = [
  'Package: libc6\nStatus: install ok installed\nArchitecture: amd64\nSource: glibc\nVersion: 2.36-9+deb12u3\n',
  'Package: tar\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1.34+dfsg-1.2\n',
  'Package: zlib1g\nStatus: install ok installed\nArchitecture: amd64\nSource: zlib\nVersion: 1:1.2.13.dfsg-1\n',
].join('\n');

function secdb(packages: Record<string, Record<string, string[]>>): string {
  return JSON.stringify({
    archs: ['x86_64'],
    reponame: 'main',
    urlprefix: 'https://dl-cdn.alpinelinux.org/alpine',
    packages: Object.entries(packages).map(([name, secfixes]) => ({ pkg: { name, secfixes } })),
  });
}

function osv(id: string, ecosystem: string, name: string, fixed: string, aliases: string[]) {
  return {
    schema_version: '1.6.0',
    id,
    modified: '2024-06-01T00:00:00Z',
    published: '2024-05-01T00:00:00Z',
    aliases,
    affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }] }],
  };
}

describe("Berth's vulnerability reports (GetVulnReport, re-match on advisory change, events)", { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let receiver: EventReceiver;
  const images = { alpine: { repo: '', digest: '' }, debian: { repo: '', digest: '' } };
  let alpineLayout = '';

  useBerth(
    (b, t) => {
      berth = b;
      owner = t;
    },
    { extraArgs: ['--allow-insecure-sinks'] },
  );
  before(async () => {
    host = registryHost(berth);
    receiver = await EventReceiver.start(berth.url);
    const sub = await rest(berth.url, 'POST', `/events/v2/subscriptions/${berth.orgUid}`, {
      token: owner,
      body: { sink: receiver.sink('org', { group: berth.orgUid }) },
    });
    assert.equal(sub.status, 200, sub.text);
  });
  after(async () => {
    await receiver?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const importAdvisories = async (dir: string, format: string, ...extra: string[]) => {
    const args = ['advisories', 'import', dir, '--format', format, ...extra, '--data', berth.dataDir];
    if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
    const r = await berthCli(args);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  };
  const write = (dir: string, name: string, text: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  const push = async (layout: string, tag: string, repository: string, token: string) => {
    const r = await skopeo(['copy', '--preserve-digests', ...creds('dest', '_token', token), `oci:${layout}:${tag}`, `docker://${host}/${repository}:${tag}`]);
    assert.equal(r.code, 0, r.stderr);
  };
  const repoUid = async (org: string, name: string, token = owner): Promise<string> => {
    const r = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${org}&page_size=100`, { token });
    const repo = r.json.repos?.find((x: { name: string }) => x.name === name);
    assert.ok(repo, r.text);
    return repo.uid as string;
  };
  const report = (img: { repo: string; digest: string }, ready?: Parameters<typeof waitForVulnReport>[4]) =>
    waitForVulnReport(berth.url, owner, img.repo, img.digest, ready);

  it('reports the matches of an Alpine-like and a Debian-like image: fixed below the fix, none at it, dpkg epochs and ~', async () => {
    const alpineDir = tmp('secdb');
    write(
      alpineDir,
      'main.json',
      secdb({
        busybox: { '1.36.1-r16': ['CVE-2023-42363'] },
        openssl: { '3.1.4-r3': ['CVE-2023-6129'], '3.1.4-r1': ['CVE-2023-5678'] },
      }),
    );
    await importAdvisories(alpineDir, 'secdb', '--namespace', 'alpine');
    const osvDir = tmp('osv');
    write(osvDir, 'glibc.json', JSON.stringify(osv('DSA-5514-1', 'Debian:12', 'glibc', '2.36-9+deb12u4', ['CVE-2023-4911'])));
    write(osvDir, 'tar.json', JSON.stringify(osv('DSA-0002-1', 'Debian:12', 'tar', '1.34+dfsg-1.2+deb12u1', ['CVE-2022-48303'])));
    // Installed 1:1.2.13.dfsg-1 is after 1:1.2.13.dfsg-1~deb12u1 (a tilde sorts before anything): no match.
    write(osvDir, 'zlib.json', JSON.stringify(osv('DSA-0003-1', 'Debian:12', 'zlib', '1:1.2.13.dfsg-1~deb12u1', ['CVE-2023-45853'])));
    await importAdvisories(osvDir, 'osv');

    alpineLayout = tmp('alpine');
    const alpine = await writeImage(alpineLayout, '3.19', {
      fileLayers: alpineLayers([
        { name: 'busybox', version: '1.36.1-r15' },
        { name: 'ssl_client', version: '1.36.1-r15', origin: 'busybox' },
        { name: 'libcrypto3', version: '3.1.4-r1', origin: 'openssl' },
        { name: 'musl', version: '1.2.4_git20230717-r4' },
      ]),
    });
    const debianLayout = tmp('debian');
    const debian = await writeImage(debianLayout, '12', { fileLayers: [{ 'etc/os-release': osRelease('debian', '12'), 'var/lib/dpkg/status': DPKG_STATUS }] });
    const token = cliToken(berth, host).token;
    await push(alpineLayout, '3.19', `${berth.orgName}/reports/alpine`, token);
    await push(debianLayout, '12', `${berth.orgName}/reports/debian`, token);
    images.alpine = { repo: await repoUid(berth.orgUid, 'reports/alpine'), digest: alpine.manifest.digest };
    images.debian = { repo: await repoUid(berth.orgUid, 'reports/debian'), digest: debian.manifest.digest };

    const a = await report(images.alpine);
    assert.deepEqual(matchSummary(a), [
      'busybox@1.36.1-r15 CVE-2023-42363 FIXED 1.36.1-r16',
      'libcrypto3@3.1.4-r1 CVE-2023-6129 FIXED 3.1.4-r3',
      'ssl_client@1.36.1-r15 CVE-2023-42363 FIXED 1.36.1-r16',
    ]);
    assert.equal(generationOf(a), 1);
    assert.deepEqual(a.json.scanner, { name: 'berth', version: MATCHER_VERSION });
    assert.equal(a.json.id, `${images.alpine.repo}@${images.alpine.digest}`);
    assert.match(a.json.vulnerabilityDbLastBuildTime, /^\d{4}-\d\d-\d\dT/);
    assert.match(a.json.lastSeen, /^\d{4}-\d\d-\d\dT/);
    const busybox = a.json.vulnerabilityMatches.find((m: { pkg: { name: string } }) => m.pkg.name === 'busybox');
    assert.equal(busybox.vulnerability.source, 'secdb');
    assert.match(busybox.pkg.purl, /^pkg:apk\/alpine\/busybox@1\.36\.1-r15/);
    assert.equal(busybox.pkg.id, busybox.pkg.purl);
    const [advisoryId, path] = Object.entries(busybox.vulnerability.advisories as Record<string, string>)[0];
    assert.equal(busybox.vulnerability.id, advisoryId);
    assert.match(path, /^\/vulnerabilities\/v2\/advisories\//);
    const advisory = await rest(berth.url, 'GET', path, { token: owner });
    assert.equal(advisory.status, 200, advisory.text);
    // The raw report is the stored JSON: the same matches.
    const raw = JSON.parse(Buffer.from(a.json.rawVulnReport, 'base64').toString('utf8')) as { id: string; package: { name: string } }[];
    assert.deepEqual(raw.map((v) => `${v.package.name} ${v.id}`).sort(), ['busybox CVE-2023-42363', 'libcrypto3 CVE-2023-6129', 'ssl_client CVE-2023-42363']);

    const d = await report(images.debian);
    assert.deepEqual(matchSummary(d), [
      'libc6@2.36-9+deb12u3 CVE-2023-4911 FIXED 2.36-9+deb12u4',
      'tar@1.34+dfsg-1.2 CVE-2022-48303 FIXED 1.34+dfsg-1.2+deb12u1',
    ]);
    assert.equal(d.json.vulnerabilityMatches.find((m: { pkg: { name: string } }) => m.pkg.name === 'libc6').vulnerability.source, 'osv');

    // The same answer over gRPC.
    const grpc = grpcClient(RegistryService, berth.url, owner);
    const viaGrpc = await grpc.getVulnReport({ repoId: images.debian.repo, digest: images.debian.digest });
    assert.deepEqual(viaGrpc.vulnerabilityMatches.map((m) => `${m.pkg?.name} ${m.vulnerability?.displayId}`).sort(), [
      'libc6 CVE-2023-4911',
      'tar CVE-2022-48303',
    ]);
    assert.equal(viaGrpc.reportGeneration, 1n);

    // Listed beside scanner reports.
    const listed = await rest(berth.url, 'GET', `/registry/v1/vuln_reports?digest=${images.alpine.digest}`, { token: owner });
    assert.equal(listed.status, 200, listed.text);
    const berthItems = listed.json.items.filter((i: { scanner: { name: string } }) => i.scanner.name === 'BERTH');
    assert.equal(berthItems.length, 1, listed.text);
    assert.deepEqual(berthItems[0].vulnerabilities.map((v: { id: string }) => v.id).sort(), ['CVE-2023-42363', 'CVE-2023-42363', 'CVE-2023-6129']);

    // A first report is a change: its event names every id as new.
    await receiver.waitFor('the first report events', () =>
      [images.alpine, images.debian].every((img) =>
        receiver.deliveredTo('org').some((e) => e.type.endsWith('registry.vulnreport.updated.v1') && e.data.body.digest === img.digest),
      ),
    );
    const first = receiver.deliveredTo('org').find((e) => e.type.endsWith('registry.vulnreport.updated.v1') && e.data.body.digest === images.alpine.digest);
    assert.deepEqual(first?.data.body.new_ids, ['CVE-2023-42363', 'CVE-2023-6129']);
  });

  it("answers an index with its platforms' reports merged, its generation their sum", async () => {
    const layout = tmp('multi');
    const index = await writeMultiArchImage(layout, '1', [
      { architecture: 'amd64', fileLayers: alpineLayers([{ name: 'busybox', version: '1.36.1-r15' }]) },
      {
        architecture: 'arm64',
        fileLayers: alpineLayers(
          [
            { name: 'busybox', version: '1.36.1-r16' },
            { name: 'libcrypto3', version: '3.1.4-r2', origin: 'openssl' },
          ],
          'aarch64',
        ),
      },
    ]);
    const r = await skopeo([
      'copy',
      '--all',
      '--preserve-digests',
      ...creds('dest', '_token', cliToken(berth, host).token),
      `oci:${layout}:1`,
      `docker://${host}/${berth.orgName}/reports/multi:1`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const repo = await repoUid(berth.orgUid, 'reports/multi');
    const [amd64, arm64] = await Promise.all(index.images.map((i) => report({ repo, digest: i.manifest.digest })));
    assert.deepEqual(matchSummary(amd64), ['busybox@1.36.1-r15 CVE-2023-42363 FIXED 1.36.1-r16']);
    assert.deepEqual(matchSummary(arm64), ['libcrypto3@3.1.4-r2 CVE-2023-6129 FIXED 3.1.4-r3']);
    const merged = await report({ repo, digest: index.index.digest });
    assert.deepEqual(matchSummary(merged), [...matchSummary(amd64), ...matchSummary(arm64)].sort());
    assert.equal(generationOf(merged), generationOf(amd64) + generationOf(arm64));
    assert.equal(merged.json.id, `${repo}@${index.index.digest}`);
  });

  it('re-matches only the image an import touches: its report gets a new generation and an event, the other is not rewritten', async () => {
    const before = { alpine: await report(images.alpine), debian: await report(images.debian) };
    const dir = tmp('secdb-musl');
    write(dir, 'musl.json', secdb({ musl: { '1.2.4_git20230717-r5': ['CVE-2025-26519'] } }));
    await importAdvisories(dir, 'secdb', '--namespace', 'alpine');

    const after = await report(images.alpine, (r) => generationOf(r) > generationOf(before.alpine));
    assert.equal(generationOf(after), generationOf(before.alpine) + 1);
    assert.ok(matchSummary(after).includes('musl@1.2.4_git20230717-r4 CVE-2025-26519 FIXED 1.2.4_git20230717-r5'), matchSummary(after).join('\n'));
    const isUpdate = (e: { type: string; data: { body: Record<string, unknown> } }, digest: string, generation: number) =>
      e.type === 'dev.berth.registry.vulnreport.updated.v1' && e.data.body.digest === digest && e.data.body.generation === generation;
    await receiver.waitFor('the changed report event', () => receiver.deliveredTo('org').some((e) => isUpdate(e, images.alpine.digest, generationOf(after))));
    assert.deepEqual(receiver.problems(), []);
    const event = receiver.deliveredTo('org').find((e) => isUpdate(e, images.alpine.digest, generationOf(after)));
    assert.equal(event?.subject, images.alpine.repo);
    assert.equal(event?.headers['ce-group'], berth.orgUid);
    assert.deepEqual(event?.data.body, {
      repo_id: images.alpine.repo,
      digest: images.alpine.digest,
      scanner: { name: 'BERTH', version: MATCHER_VERSION },
      generation: generationOf(after),
      matches: 4,
      counts: { critical: 0, high: 0, medium: 0, low: 0, negligible: 0, unknown: 4 },
      new_ids: ['CVE-2025-26519'],
      new_count: 1,
      fixed_ids: [],
      fixed_count: 0,
    });

    // The splice of the changed package's matches is what a whole re-match gives: the same image pushed to another repo now is matched whole.
    await push(alpineLayout, '3.19', `${berth.orgName}/reports/alpine-again`, cliToken(berth, host).token);
    const whole = await report({ repo: await repoUid(berth.orgUid, 'reports/alpine-again'), digest: images.alpine.digest });
    assert.deepEqual(whole.json.vulnerabilityMatches, after.json.vulnerabilityMatches);

    // The Debian image holds no musl: the change that re-matched the Alpine image (in the same step) queued nothing for it.
    const debianNow = await report(images.debian);
    assert.equal(generationOf(debianNow), generationOf(before.debian));
    assert.equal(debianNow.json.lastSeen, before.debian.json.lastSeen);
    assert.ok(
      !receiver
        .deliveredTo('org')
        .some((e) => e.type.endsWith('vulnreport.updated.v1') && e.data.body.digest === images.debian.digest && e.data.body.generation !== 1),
    );
    // Both are current as of the import: the one re-matched, the other left alone as it does not hold the package.
    assert.equal(debianNow.json.vulnerabilityDbLastBuildTime, after.json.vulnerabilityDbLastBuildTime);
    assert.ok(debianNow.json.vulnerabilityDbLastBuildTime > before.debian.json.vulnerabilityDbLastBuildTime);
  });

  it("matches an organization's own advisories in its own reports only, never in another organization's report of the same image", async () => {
    const other = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: `reports-${Date.now()}.example` } });
    assert.equal(other.status, 200, other.text);
    const otherOrg = other.json.uid as string;
    const otherOwner = await identityWithRole(berth.url, owner, otherOrg, 'owner', otherOrg);
    const pusher = await identityWithKeys(berth, owner, otherOrg, 'owner');
    // The same Alpine image, pushed into the other organization: its report comes from the feed's advisories too.
    await push(alpineLayout, '3.19', `${other.json.name}/reports/alpine`, await pusher.tokenFor(host));
    const theirs = { repo: await repoUid(otherOrg, 'reports/alpine', otherOwner.token), digest: images.alpine.digest };
    const mine = await report(images.alpine);
    const theirsBefore = await waitForVulnReport(berth.url, otherOwner.token, theirs.repo, theirs.digest);
    assert.deepEqual(matchSummary(theirsBefore), matchSummary(mine));

    // A private advisory imported into the other organization's group.
    const dir = tmp('secdb-private');
    write(dir, 'private.json', secdb({ busybox: { '1.36.1-r99': ['CVE-2099-0001'] } }));
    await importAdvisories(dir, 'secdb', '--namespace', 'alpine', '--group', otherOrg);
    const theirsAfter = await waitForVulnReport(berth.url, otherOwner.token, theirs.repo, theirs.digest, (r) => generationOf(r) > generationOf(theirsBefore));
    assert.ok(matchSummary(theirsAfter).includes('busybox@1.36.1-r15 CVE-2099-0001 FIXED 1.36.1-r99'), matchSummary(theirsAfter).join('\n'));
    // The first organization's report of the same digest was re-matched (the key changed) but did not change.
    const mineAfter = await report(images.alpine);
    assert.equal(generationOf(mineAfter), generationOf(mine));
    assert.ok(!JSON.stringify(mineAfter.json).includes('CVE-2099-0001'));
    assert.ok(!receiver.deliveredTo('org').some((e) => JSON.stringify(e.data.body).includes('CVE-2099-0001')));
  });

  it('answers no token 401, a caller bound only in a subgroup or in another organization 403 (also for a digest the repo lacks), a bad digest 400', async () => {
    const path = vulnReportPath(images.alpine.repo, images.alpine.digest);
    const anonymous = await rest(berth.url, 'GET', path);
    assert.equal(anonymous.status, 401, anonymous.text);

    const sub = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'reports-sub' } });
    assert.equal(sub.status, 200, sub.text);
    const inSub = await identityWithRole(berth.url, owner, berth.orgUid, 'viewer', sub.json.uid);
    const other = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: `outsider-${Date.now()}.example` } });
    const outsider = await identityWithRole(berth.url, owner, other.json.uid, 'owner', other.json.uid);
    for (const who of [inSub.token, outsider.token]) {
      for (const p of [path, vulnReportPath(images.alpine.repo, `sha256:${'1'.repeat(64)}`)]) {
        const r = await rest(berth.url, 'GET', p, { token: who });
        assert.equal(r.status, 403, r.text);
        assert.ok(!r.text.includes('CVE-'));
      }
    }
    const viewer = await identityWithRole(berth.url, owner, berth.orgUid, 'viewer', berth.orgUid);
    const seen = await rest(berth.url, 'GET', path, { token: viewer.token });
    assert.equal(seen.status, 200, seen.text);

    const missing = await rest(berth.url, 'GET', vulnReportPath(images.alpine.repo, `sha256:${'0'.repeat(64)}`), { token: owner });
    assert.equal(missing.status, 404, missing.text);
    const bad = await rest(berth.url, 'GET', vulnReportPath(images.alpine.repo, 'sha256:nothex'), { token: owner });
    assert.equal(bad.status, 400, bad.text);
  });
});
