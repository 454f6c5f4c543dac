// `berth images vulns ORG/IMAGE[:TAG|@DIGEST]`, run as a child process
// against a real server: images pushed with skopeo, Grype reports imported
// with `berth images scans import`, secdb advisories with `berth advisories
// import`. Berth's own report is shown by default, --scanner grype the newest
// Grype report; no report to show is an error with a hint; the table lists
// most severe first; --severity narrows; -o json prints the report; an index
// shows its --platform image's report (default linux/amd64), else one
// imported for the index itself.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli, cliEnv, type Run } from '../harness/cli-run.js';
import { type GrypeMatch, grypeReportFile } from '../harness/grype-report.js';
import { writeImage, writeMultiArchImage } from '../harness/oci-layout.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { alpineLayers } from '../harness/scan-images.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';
import { matchSummary, waitForVulnReport } from '../harness/vuln-report-wait.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));

const MATCHES: GrypeMatch[] = [
  { id: 'CVE-2024-0003', severity: 'Medium', pkg: 'busybox', version: '1.36.1-r15', fixed: ['1.36.1-r16'] },
  { id: 'CVE-2024-0001', severity: 'Critical', pkg: 'openssl', version: '3.1.0-r0', fixed: ['3.1.4-r0'] },
  { id: 'CVE-2024-0005', severity: 'Unknown', pkg: 'zlib', version: '1.3-r0', state: 'unknown' },
  { id: 'GHSA-aaaa-bbbb-cccc', aliases: ['CVE-2024-0002'], severity: 'High', pkg: 'musl', version: '1.2.4-r0', state: 'wont-fix' },
  { id: 'CVE-2024-0004', severity: 'Low', pkg: 'openssl', version: '3.1.0-r0' },
];

describe('berth images vulns', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let regToken: string;
  let digest: string;
  let repoUid: string;
  let index: { repo: string; digest: string; amd64: string; arm64: string };
  const env = cliEnv(tmp('vulns-cli'));
  const berthArgs = () => ['--credentials', berth.credentialsFile, '--api', berth.url];
  const vulns = (...args: string[]): Promise<Run> => berthCli(['images', 'vulns', ...args, ...berthArgs()], { env });
  const ok = async (...args: string[]) => {
    const r = await vulns(...args);
    assert.equal(r.code, 0, `berth images vulns ${args.join(' ')}:\n${r.stderr}`);
    return r.stdout;
  };
  const importReport = async (file: string, image: string) => {
    const r = await berthCli(['images', 'scans', 'import', file, '--image', image, ...berthArgs()], { env });
    assert.equal(r.code, 0, r.stderr);
  };
  const push = async (layout: string, tag: string, repo: string, all = false) => {
    const r = await skopeo([
      'copy',
      '--preserve-digests',
      ...(all ? ['--all'] : []),
      ...creds('dest', '_token', regToken),
      `oci:${layout}:${tag}`,
      `docker://${host}/${berth.orgName}/${repo}:${tag}`,
    ]);
    assert.equal(r.code, 0, r.stderr);
  };

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    host = registryHost(berth);
    regToken = cliToken(berth, host).token;
    const layout = tmp('vulns-image');
    const image = await writeImage(layout, '1.0', {
      fileLayers: alpineLayers([
        { name: 'musl', version: '1.2.4-r0' },
        { name: 'busybox', version: '1.36.1-r15' },
      ]),
    });
    await push(layout, '1.0', 'tools/app');
    digest = image.manifest.digest;
    const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}`, { token: owner });
    repoUid = repos.json.repos.find((r: { name: string }) => r.name === 'tools/app').uid;

    const multi = tmp('vulns-index');
    const written = await writeMultiArchImage(multi, '1', [
      { architecture: 'amd64', fileLayers: alpineLayers([{ name: 'musl', version: '1.2.5-r0' }]) },
      { architecture: 'arm64', fileLayers: alpineLayers([{ name: 'musl', version: '1.2.5-r1' }], 'aarch64') },
    ]);
    await push(multi, '1', 'tools/multi', true);
    const multiRepo = (await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}`, { token: owner })).json.repos.find(
      (r: { name: string }) => r.name === 'tools/multi',
    ).uid;
    index = { repo: multiRepo, digest: written.index.digest, amd64: written.images[0].manifest.digest, arm64: written.images[1].manifest.digest };
  });

  it("shows Berth's own report by default, and says when there is no report of the scanner asked for", async () => {
    const ready = await waitForVulnReport(berth.url, owner, repoUid, digest);
    assert.deepEqual(matchSummary(ready), []);
    const own = await ok(`${berth.orgName}/tools/app:1.0`);
    assert.match(own, new RegExp(`^0 vulnerabilities · BERTH \\S+ report of ${digest} made \\d{4}-`));

    const r = await vulns(`${berth.orgName}/tools/app:1.0`, '--scanner', 'grype');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      new RegExp(`no vulnerability report for ${berth.orgName}/tools/app:1\\.0 \\(${digest}\\) to show: no Grype report was imported for it`),
    );
    assert.match(r.stderr, new RegExp(`berth images sbom ${berth.orgName}/tools/app:1\\.0`));
    assert.match(r.stderr, new RegExp(`berth images scans import FILE --image ${berth.orgName}/tools/app:1\\.0`));
  });

  it('lists the newest Grype report most severe first, by tag and by digest', async () => {
    await importReport(grypeReportFile('2025-01-01T00:00:00Z', [MATCHES[0]], '0.70.0'), `${berth.orgName}/tools/app:1.0`);
    await importReport(grypeReportFile('2025-03-01T00:00:00Z', MATCHES), `${berth.orgName}/tools/app:1.0`);
    const table = await ok(`${berth.orgName}/tools/app:1.0`, '--scanner', 'grype');
    const lines = table.trimEnd().split('\n');
    assert.match(lines[0], /^ID\s+SEVERITY\s+PACKAGE\s+INSTALLED\s+FIXED IN\s+FIX STATE$/);
    assert.deepEqual(
      lines.slice(1, 6).map((l) => l.split(/\s{2,}/)),
      [
        ['CVE-2024-0001', 'CRITICAL', 'openssl', '3.1.0-r0', '3.1.4-r0', 'fixed'],
        ['GHSA-aaaa-bbbb-cccc', 'HIGH', 'musl', '1.2.4-r0', '-', 'wont-fix'],
        ['CVE-2024-0003', 'MEDIUM', 'busybox', '1.36.1-r15', '1.36.1-r16', 'fixed'],
        ['CVE-2024-0004', 'LOW', 'openssl', '3.1.0-r0', '-', 'not-fixed'],
        ['CVE-2024-0005', 'UNKNOWN', 'zlib', '1.3-r0', '-', 'unknown'],
      ],
    );
    assert.equal(
      lines[6],
      `5 vulnerabilities: 1 critical, 1 high, 1 medium, 1 low, 1 unknown · GRYPE 0.79.3 report of ${digest} made 2025-03-01T00:00:00.000Z`,
    );
    assert.equal(lines.length, 7);
    assert.equal(await ok(`${berth.orgName}/tools/app@${digest}`, '--scanner', 'grype'), table);
    const trivy = await vulns(`${berth.orgName}/tools/app:1.0`, '--scanner', 'trivy');
    assert.equal(trivy.code, 1);
    assert.match(trivy.stderr, /to show: no Trivy report was imported for it/);
  });

  it('narrows to the --severity levels asked for, and refuses an unknown level before signing in', async () => {
    const table = await ok(`${berth.orgName}/tools/app:1.0`, '--scanner', 'grype', '--severity', 'critical,High');
    const ids = table
      .trimEnd()
      .split('\n')
      .slice(1, -1)
      .map((l) => l.split(/\s+/)[0]);
    assert.deepEqual(ids, ['CVE-2024-0001', 'GHSA-aaaa-bbbb-cccc']);
    assert.match(table, /\n2 vulnerabilities: 1 critical, 1 high \(of 5\) · GRYPE/);
    const none = await ok(`${berth.orgName}/tools/app:1.0`, '--scanner', 'grype', '--severity', 'negligible');
    assert.match(none, /^0 vulnerabilities \(of 5\) · GRYPE 0\.79\.3 report of /);

    const bad = await berthCli(['images', 'vulns', `${berth.orgName}/tools/app:1.0`, '--severity', 'severe', '--credentials', '/nonexistent'], { env });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--severity "severe" is not one of critical, high, medium, low, negligible, unknown/);
    const badScanner = await vulns(`${berth.orgName}/tools/app:1.0`, '--scanner', 'clair');
    assert.notEqual(badScanner.code, 0);
    assert.match(badScanner.stderr, /Allowed choices are berth, grype, trivy/);
    const badRef = await vulns(`${berth.orgName}/tools/app@sha256:abc`);
    assert.notEqual(badRef.code, 0);
    assert.match(badRef.stderr, /is not a digest/);
    const noTag = await vulns(`${berth.orgName}/tools/app:nope`);
    assert.notEqual(noTag.code, 0);
    assert.match(noTag.stderr, /no tag named "nope"/);
  });

  it('prints the report as JSON, sorted and narrowed', async () => {
    const json = JSON.parse(await ok(`${berth.orgName}/tools/app:1.0`, '--scanner', 'grype', '-o', 'json', '--severity', 'critical,medium'));
    assert.equal(json.digest, digest);
    assert.deepEqual(json.scanner, { name: 'GRYPE', version: '0.79.3', dbBuildTime: '2025-03-14T01:31:06.000Z' });
    assert.equal(json.createdAt, '2025-03-01T00:00:00.000Z');
    assert.deepEqual(
      json.vulnerabilities.map((v: { id: string; severity: string; fix: unknown; package: unknown }) => [v.id, v.severity, v.fix, v.package]),
      [
        [
          'CVE-2024-0001',
          'CRITICAL',
          { versions: ['3.1.4-r0'], state: 'FIXED' },
          { name: 'openssl', version: '3.1.0-r0', purl: 'pkg:apk/alpine/openssl@3.1.0-r0?arch=x86_64&distro=alpine-3.19.1', type: 'apk' },
        ],
        [
          'CVE-2024-0003',
          'MEDIUM',
          { versions: ['1.36.1-r16'], state: 'FIXED' },
          { name: 'busybox', version: '1.36.1-r15', purl: 'pkg:apk/alpine/busybox@1.36.1-r15?arch=x86_64&distro=alpine-3.19.1', type: 'apk' },
        ],
      ],
    );
  });

  it("shows Berth's own matches once advisories are imported, in the same shape", async () => {
    const dir = tmp('vulns-secdb');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'main.json'),
      JSON.stringify({
        archs: ['x86_64'],
        reponame: 'main',
        urlprefix: 'https://dl-cdn.alpinelinux.org/alpine',
        packages: [{ pkg: { name: 'busybox', secfixes: { '1.36.1-r16': ['CVE-2023-42363'] } } }],
      }),
    );
    const args = ['advisories', 'import', dir, '--format', 'secdb', '--namespace', 'alpine', '--data', berth.dataDir];
    if (berth.databaseUrl) args.push('--database', berth.databaseUrl);
    const imported = await berthCli(args, { env });
    assert.equal(imported.code, 0, imported.stderr);
    await waitForVulnReport(berth.url, owner, repoUid, digest, (r) => matchSummary(r).length === 1);

    const table = await ok(`${berth.orgName}/tools/app:1.0`);
    const lines = table.trimEnd().split('\n');
    assert.deepEqual(lines[1].split(/\s{2,}/), ['CVE-2023-42363', 'UNKNOWN', 'busybox', '1.36.1-r15', '1.36.1-r16', 'fixed']);
    assert.match(lines[2], new RegExp(`^1 vulnerability: 1 unknown · BERTH \\S+ report of ${digest} made `));
    const json = JSON.parse(await ok(`${berth.orgName}/tools/app:1.0`, '--scanner', 'berth', '-o', 'json'));
    assert.equal(json.digest, digest);
    assert.equal(json.scanner.name, 'BERTH');
    assert.deepEqual(
      json.vulnerabilities.map((v: { id: string; package: { name: string; version: string }; fix: unknown }) => [
        v.id,
        v.package.name,
        v.package.version,
        v.fix,
      ]),
      [['CVE-2023-42363', 'busybox', '1.36.1-r15', { versions: ['1.36.1-r16'], state: 'FIXED' }]],
    );
    // The Grype report is still there for who asks for it.
    assert.match(await ok(`${berth.orgName}/tools/app:1.0`, '--scanner', 'grype'), /CVE-2024-0001/);
  });

  it("shows an index's --platform image (default linux/amd64), and says which platforms there are", async () => {
    const ref = `${berth.orgName}/tools/multi:1`;
    const grype = ['--scanner', 'grype'];
    await importReport(
      grypeReportFile('2025-02-01T00:00:00Z', [{ id: 'CVE-2025-0064', severity: 'High', pkg: 'musl', version: '1.2.5-r0' }]),
      `${berth.orgName}/tools/multi@${index.amd64}`,
    );
    const none = await vulns(ref, ...grype, '--platform', 'linux/arm64');
    assert.equal(none.code, 1);
    assert.match(none.stderr, new RegExp(`\\(${index.arm64} \\(linux/arm64 of ${index.digest}\\)\\) to show`));

    // A report imported for the index itself stands in for a platform image that has none.
    await importReport(grypeReportFile('2025-02-03T00:00:00Z', [{ id: 'CVE-2025-0256', severity: 'Medium', pkg: 'musl', version: '1.2.5-r1' }]), ref);
    assert.match(
      await ok(ref, ...grype, '--platform', 'linux/arm64'),
      new RegExp(`\\nCVE-2025-0256\\s+MEDIUM[^\\n]*\\n1 vulnerability: 1 medium · GRYPE 0\\.79\\.3 report of ${index.digest} `),
    );

    await importReport(
      grypeReportFile('2025-02-02T00:00:00Z', [{ id: 'CVE-2025-0128', severity: 'Low', pkg: 'musl', version: '1.2.5-r1' }]),
      `${berth.orgName}/tools/multi@${index.arm64}`,
    );
    assert.match(await ok(ref, ...grype), new RegExp(`\\nCVE-2025-0064\\s+HIGH[^\\n]*\\n1 vulnerability: 1 high · GRYPE 0\\.79\\.3 report of ${index.amd64} `));
    assert.match(
      await ok(ref, ...grype, '--platform', 'linux/arm64'),
      new RegExp(`\\nCVE-2025-0128\\s+LOW[^\\n]*\\n1 vulnerability: 1 low · GRYPE 0\\.79\\.3 report of ${index.arm64} `),
    );
    // The platform image named by its own digest needs no --platform.
    assert.match(await ok(`${berth.orgName}/tools/multi@${index.arm64}`, ...grype), /CVE-2025-0128/);
    // Berth's own report is of the platform image too.
    await waitForVulnReport(berth.url, owner, index.repo, index.arm64);
    assert.match(await ok(ref, '--platform', 'linux/arm64'), new RegExp(`· BERTH \\S+ report of ${index.arm64} made `));

    const missing = await vulns(ref, '--platform', 'linux/s390x');
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /offers no linux\/s390x image \(it offers linux\/amd64, linux\/arm64\); choose one with --platform/);
    const mismatch = await vulns(`${berth.orgName}/tools/app:1.0`, '--platform', 'linux/arm64');
    assert.notEqual(mismatch.code, 0);
    assert.match(mismatch.stderr, /offers no linux\/arm64 image \(it offers linux\/amd64\)/);
    const malformed = await vulns(ref, '--platform', 'arm64');
    assert.notEqual(malformed.code, 0);
    assert.match(malformed.stderr, /--platform "arm64" is not os\/arch\[\/variant\]/);
  });
});
