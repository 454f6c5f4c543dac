// `berth images diff A B`, run as a child process against a real server: two
// Alpine-like images pushed with skopeo (in two repos), inventoried by Berth,
// Grype reports imported with `berth images scans import`. Packages added,
// removed and changed come from the SBOMs; vulnerabilities fixed and
// introduced from the reports (--scanner grype; Berth's own by default), one
// flaw under a GHSA id in A and its CVE in B being the same; as tables and
// JSON; an image without a report still gets its package changes, with exit
// status 1 and the reason.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli, cliEnv, type Run } from '../harness/cli-run.js';
import { grypeReportFile } from '../harness/grype-report.js';
import { writeImage } from '../harness/oci-layout.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { alpineLayers, waitForSbom } from '../harness/scan-images.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';
import { waitForVulnReport } from '../harness/vuln-report-wait.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));
const apk = (name: string, version: string) => `pkg:apk/alpine/${name}@${version}?arch=x86_64&distro=alpine-3.19.1`;

describe('berth images diff', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let regToken: string;
  const digests: Record<string, string> = {};
  const env = cliEnv(tmp('diff-cli'));
  const berthArgs = () => ['--credentials', berth.credentialsFile, '--api', berth.url];
  const diff = (...args: string[]): Promise<Run> => berthCli(['images', 'diff', ...args, ...berthArgs()], { env });
  const grype = ['--scanner', 'grype'];
  const repoUids: Record<string, string> = {};
  const ref = (name: string) => `${berth.orgName}/${name}`;

  async function pushImage(repo: string, tag: string, packages: { name: string; version: string }[]): Promise<void> {
    const layout = tmp('diff-image');
    const image = await writeImage(layout, tag, { fileLayers: alpineLayers(packages) });
    const r = await skopeo([
      'copy',
      '--preserve-digests',
      ...creds('dest', '_token', regToken),
      `oci:${layout}:${tag}`,
      `docker://${host}/${berth.orgName}/${repo}:${tag}`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    digests[`${repo}:${tag}`] = image.manifest.digest;
    const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}&page_size=100`, { token: owner });
    const uid = repos.json.repos.find((x: { name: string }) => x.name === repo).uid;
    repoUids[repo] = uid;
    await waitForSbom(berth.url, owner, uid, image.manifest.digest);
  }

  async function importReport(file: string, image: string): Promise<void> {
    const r = await berthCli(['images', 'scans', 'import', file, '--image', image, ...berthArgs()], { env });
    assert.equal(r.code, 0, r.stderr);
  }

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    host = registryHost(berth);
    regToken = cliToken(berth, host).token;
    await pushImage('app', '1.0', [
      { name: 'musl', version: '1.2.4-r0' },
      { name: 'busybox', version: '1.36.1-r15' },
      { name: 'openssl', version: '3.1.0-r0' },
      { name: 'zlib', version: '1.3-r0' },
    ]);
    await pushImage('app-next', '2.0', [
      { name: 'musl', version: '1.2.4-r0' },
      { name: 'busybox', version: '1.36.1-r16' },
      { name: 'openssl', version: '3.1.4-r0' },
      { name: 'curl', version: '8.5.0-r0' },
    ]);
    await pushImage('app', 'unscanned', [{ name: 'musl', version: '1.2.5-r0' }]);
    await importReport(
      grypeReportFile('2025-03-01T00:00:00Z', [
        { id: 'CVE-2024-0001', severity: 'Critical', pkg: 'openssl', version: '3.1.0-r0', fixed: ['3.1.4-r0'] },
        { id: 'CVE-2024-0002', severity: 'Medium', pkg: 'zlib', version: '1.3-r0' },
        { id: 'GHSA-aaaa-bbbb-cccc', aliases: ['CVE-2024-0003'], severity: 'High', pkg: 'busybox', version: '1.36.1-r15' },
      ]),
      ref('app:1.0'),
    );
    await importReport(
      grypeReportFile('2025-03-02T00:00:00Z', [
        { id: 'CVE-2024-0003', severity: 'High', pkg: 'busybox', version: '1.36.1-r16' },
        { id: 'CVE-2024-0004', severity: 'Low', pkg: 'curl', version: '8.5.0-r0', fixed: ['8.6.0-r0'] },
      ]),
      ref('app-next:2.0'),
    );
  });

  it('prints packages added, removed and changed, and vulnerabilities fixed and introduced, across two repos', async () => {
    const r = await diff(ref('app:1.0'), ref('app-next:2.0'), ...grype);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const sections = r.stdout.split('\n\n');
    assert.equal(sections.length, 6, r.stdout);
    const rows = (s: string) =>
      s
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/\s{2,}/));
    assert.deepEqual(rows(sections[0]), [['Packages added (1)'], ['NAME', 'VERSION', 'PURL'], ['curl', '8.5.0-r0', apk('curl', '8.5.0-r0')]]);
    assert.deepEqual(rows(sections[1]), [['Packages removed (1)'], ['NAME', 'VERSION', 'PURL'], ['zlib', '1.3-r0', apk('zlib', '1.3-r0')]]);
    assert.deepEqual(rows(sections[2]), [
      ['Packages changed (2)'],
      ['NAME', 'FROM', 'TO'],
      ['busybox', '1.36.1-r15', '1.36.1-r16'],
      ['openssl', '3.1.0-r0', '3.1.4-r0'],
    ]);
    assert.deepEqual(rows(sections[3]), [
      ['Vulnerabilities fixed (2)'],
      ['ID', 'SEVERITY', 'PACKAGE', 'VERSION', 'FIXED IN', 'FIX STATE'],
      ['CVE-2024-0001', 'CRITICAL', 'openssl', '3.1.0-r0', '3.1.4-r0', 'fixed'],
      ['CVE-2024-0002', 'MEDIUM', 'zlib', '1.3-r0', '-', 'not-fixed'],
    ]);
    assert.deepEqual(rows(sections[4]), [
      ['Vulnerabilities introduced (1)'],
      ['ID', 'SEVERITY', 'PACKAGE', 'VERSION', 'FIXED IN', 'FIX STATE'],
      ['CVE-2024-0004', 'LOW', 'curl', '8.5.0-r0', '8.6.0-r0', 'fixed'],
    ]);
    assert.equal(
      sections[5],
      `A: GRYPE 0.79.3 report of ${digests['app:1.0']} made 2025-03-01T00:00:00.000Z\nB: GRYPE 0.79.3 report of ${digests['app-next:2.0']} made 2025-03-02T00:00:00.000Z\n`,
    );
  });

  it('prints the same as JSON, by digest, and the reverse diff swaps every side', async () => {
    const run = async (a: string, b: string) => {
      const r = await diff(a, b, '-o', 'json', ...grype);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const out = await run(`${ref('app')}@${digests['app:1.0']}`, ref('app-next:2.0'));
    assert.deepEqual(out.from, {
      image: `${ref('app')}@${digests['app:1.0']}`,
      digest: digests['app:1.0'],
      imageDigest: digests['app:1.0'],
      platform: 'linux/amd64',
      report: {
        digest: digests['app:1.0'],
        scanner: { name: 'GRYPE', version: '0.79.3', dbBuildTime: '2025-03-14T01:31:06.000Z' },
        createdAt: '2025-03-01T00:00:00.000Z',
      },
    });
    assert.equal(out.to.digest, digests['app-next:2.0']);
    assert.deepEqual(out.packages, {
      added: [{ name: 'curl', version: '8.5.0-r0', purl: apk('curl', '8.5.0-r0') }],
      removed: [{ name: 'zlib', version: '1.3-r0', purl: apk('zlib', '1.3-r0') }],
      changed: [
        {
          name: 'busybox',
          previous: { version: '1.36.1-r15', purl: apk('busybox', '1.36.1-r15') },
          current: { version: '1.36.1-r16', purl: apk('busybox', '1.36.1-r16') },
        },
        {
          name: 'openssl',
          previous: { version: '3.1.0-r0', purl: apk('openssl', '3.1.0-r0') },
          current: { version: '3.1.4-r0', purl: apk('openssl', '3.1.4-r0') },
        },
      ],
    });
    const ids = (vs: { id: string }[]) => vs.map((v) => v.id);
    assert.deepEqual(ids(out.vulnerabilities.fixed), ['CVE-2024-0001', 'CVE-2024-0002']);
    assert.deepEqual(ids(out.vulnerabilities.introduced), ['CVE-2024-0004']);
    assert.deepEqual(out.vulnerabilities.fixed[0].fix, { versions: ['3.1.4-r0'], state: 'FIXED' });

    const back = await run(ref('app-next:2.0'), ref('app:1.0'));
    assert.deepEqual(back.packages.added, out.packages.removed);
    assert.deepEqual(back.packages.removed, out.packages.added);
    assert.deepEqual(
      back.packages.changed.map((c: { name: string; previous: unknown; current: unknown }) => [c.name, c.current, c.previous]),
      out.packages.changed.map((c: { name: string; previous: unknown; current: unknown }) => [c.name, c.previous, c.current]),
    );
    assert.deepEqual(ids(back.vulnerabilities.fixed), ['CVE-2024-0004']);
    assert.deepEqual(ids(back.vulnerabilities.introduced), ['CVE-2024-0001', 'CVE-2024-0002']);

    const same = await run(ref('app:1.0'), ref('app:1.0'));
    assert.deepEqual(same.packages, { added: [], removed: [], changed: [] });
    assert.deepEqual(same.vulnerabilities, { fixed: [], introduced: [] });
  });

  it('still prints the package changes when an image has no report, and exits 1 saying which', async () => {
    const r = await diff(ref('app:1.0'), ref('app:unscanned'), ...grype);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^Packages added \(0\)\n\(none\)\n\nPackages removed \(3\)\n/);
    assert.match(r.stdout, /\nPackages changed \(1\)\nNAME\s+FROM\s+TO\nmusl\s+1\.2\.4-r0\s+1\.2\.5-r0\n/);
    assert.match(r.stdout, /\nVulnerabilities: not compared \(see below\)\n$/);
    assert.match(
      r.stderr,
      new RegExp(`no vulnerability report for ${ref('app:unscanned')} \\(${digests['app:unscanned']}\\) to show: no Grype report was imported for it`),
    );
    assert.doesNotMatch(r.stderr, new RegExp(`report for ${ref('app:1.0')}`));

    const json = await diff(ref('app:unscanned'), ref('app:1.0'), '-o', 'json', ...grype);
    assert.equal(json.code, 1);
    const out = JSON.parse(json.stdout);
    assert.equal(out.vulnerabilities, null);
    assert.equal(out.from.report, null);
    assert.deepEqual(
      out.packages.changed.map((c: { name: string }) => c.name),
      ['musl'],
    );
  });

  it("compares Berth's own reports by default", async () => {
    await waitForVulnReport(berth.url, owner, repoUids.app, digests['app:1.0']);
    await waitForVulnReport(berth.url, owner, repoUids['app-next'], digests['app-next:2.0']);
    const r = await diff(ref('app:1.0'), ref('app-next:2.0'), '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual([out.from.report.scanner.name, out.to.report.scanner.name], ['BERTH', 'BERTH']);
    assert.deepEqual(out.vulnerabilities, { fixed: [], introduced: [] }, 'no advisories imported: nothing matched');
    assert.equal(out.packages.changed.length, 2);
  });

  it('refuses malformed references and names what it cannot find', async () => {
    const bad = await diff(ref('app:1.0'), 'no-org-here');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /names no organization/);
    const missing = await diff(ref('app:1.0'), ref('nothing:1'));
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no repo named "nothing"/);
  });
});
