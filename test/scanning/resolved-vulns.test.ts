// Resolved vulnerability reports over the public surface (SQLite, or
// PostgreSQL with BERTH_TEST_PG): two Alpine-like images with apk databases
// pushed in turn to tools/base:latest with skopeo (the second push moves the
// tag; the history rows are then backdated to chosen days, as a push cannot
// be made in the past), a Grype report imported for each with `berth images
// scans import` (Berth's own report, matched from the advisories, is the one
// read), advisories imported into the feed with `berth advisories import` and
// metadata with `import-metadata`. Then v2 resolvedVulns (REST
// text and JSON forms of imageRefs, gRPC) and the v1 twin: an advisory fixed
// on a day for a package of the image (by its origin), vulnerabilities gone
// with the tag's move (under the advisory's CGA id when one names them),
// empty days listed; the 366-day cap; callers without the capabilities at
// the repo (no token, a sibling group, another organization) get empty days.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { grpcClient, type RestResult, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli, cliEnv } from '../harness/cli-run.js';
import type { WrittenImage } from '../harness/oci-layout.js';
import { cliToken, identityWithKeys, registryHost } from '../harness/registry-client.js';
import { alpineLayers, waitForSbom } from '../harness/scan-images.js';
import { skopeoMissing } from '../harness/skopeo.js';
import { backdateTag, grypeReportFile, pushToTag } from '../harness/tag-moves.js';
import { matchSummary, waitForVulnReport } from '../harness/vuln-report-wait.js';
import { SecurityAdvisoryService } from '../../src/gen/berth/advisory/v2/advisory_pb.js';

const CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
const RANGE = 'startTime=2026-03-31T00:00:00Z&endTime=2026-04-04T23:00:00Z';

function yamlDocument(pkg: string, advisories: { id: string; alias: string; events: string[] }[]): string {
  const lines = ['schema-version: 2.0.2', 'package:', `  name: ${pkg}`, 'advisories:'];
  for (const a of advisories) {
    lines.push(`  - id: ${a.id}`, '    aliases:', `      - ${a.alias}`, '    events:');
    for (const e of a.events) lines.push(...e.split('\n').map((l, i) => (i === 0 ? `      - ${l}` : `        ${l}`)));
  }
  return `${lines.join('\n')}\n`;
}
const fixedOn = (time: string, version: string) => `timestamp: ${time}\ntype: fixed\ndata:\n  fixed-version: ${version}`;
const detectedOn = (time: string) => `timestamp: ${time}\ntype: detection\ndata:\n  type: manual`;

interface Day {
  date: string;
  resolvedVulns?: { id: string; aliases?: string[]; cvssSeverities?: { type?: string; score?: string }[] }[];
}

/** Each day as "<date>: <id> [aliases] <severity types>; …". */
function days(list: Day[]): string[] {
  return list.map(
    (d) =>
      `${d.date.slice(0, 10)}: ${(d.resolvedVulns ?? [])
        .map(
          (v) =>
            `${v.id} [${(v.aliases ?? []).join(',')}] ${(v.cvssSeverities ?? []).map((s) => `${s.type ?? 'TYPE_UNSPECIFIED'}=${s.score ?? ''}`).join(',')}`,
        )
        .join('; ')}`,
  );
}

const EXPECTED = [
  '2026-03-31: ',
  '2026-04-01: ',
  '2026-04-02: CGA-23cf-2222-3333 [CVE-2026-1002] TYPE_UNSPECIFIED=',
  // GHSA-2222-3333-4444 is only in the imported Grype report of the first image: Berth's own report
  // of each digest is the one read, and it holds what matching the advisories found.
  `2026-04-03: CGA-44hj-2222-3333 [CVE-2026-1001] TYPE_CVSS_V3=${CVSS}`,
  '2026-04-04: ',
];

describe('resolved vulnerability reports', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  const v2 = (query: string, token: string | undefined = owner) => rest(berth.url, 'GET', `/advisory/v2/images/resolvedVulns?${query}`, { token });

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    const host = registryHost(berth);
    const regToken = cliToken(berth, host).token;
    const first: WrittenImage = await pushToTag(berth, host, regToken, 'tools/base', 'latest', {
      fileLayers: alpineLayers([
        { name: 'openssl', version: '3.1.0-r0' },
        { name: 'ssl_client', version: '1.36.1-r0', origin: 'busybox' },
      ]),
    });
    const second: WrittenImage = await pushToTag(berth, host, regToken, 'tools/base', 'latest', {
      fileLayers: alpineLayers([
        { name: 'openssl', version: '3.1.4-r0' },
        { name: 'ssl_client', version: '1.36.1-r0', origin: 'busybox' },
      ]),
    });
    const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}`, { token: owner });
    const repoUid = repos.json.repos.find((r: { name: string }) => r.name === 'tools/base').uid;
    for (const image of [first, second]) await waitForSbom(berth.url, owner, repoUid, image.manifest.digest);
    await backdateTag(berth, repoUid, 'latest', ['2026-04-01T08:00:00.000Z', '2026-04-03T12:00:00.000Z']);

    const env = cliEnv(mkdtempSync(join(tmpdir(), 'berth-resolved-')));
    const importReport = async (image: WrittenImage, file: string) => {
      const args = ['images', 'scans', 'import', file, '--image', `${berth.orgName}/tools/base@${image.manifest.digest}`];
      const r = await berthCli([...args, '--credentials', berth.credentialsFile, '--api', berth.url], { env });
      assert.equal(r.code, 0, r.stderr);
    };
    await importReport(
      first,
      grypeReportFile('2026-04-01T09:00:00Z', [
        { id: 'CVE-2026-1001', severity: 'High', pkg: 'openssl' },
        { id: 'CVE-2026-1002', severity: 'Medium', pkg: 'ssl_client' },
        { id: 'GHSA-2222-3333-4444', severity: 'Low', pkg: 'openssl' },
      ]),
    );
    await importReport(second, grypeReportFile('2026-04-03T13:00:00Z', [{ id: 'CVE-2026-1002', severity: 'Medium', pkg: 'ssl_client' }]));

    // The feed: busybox (ssl_client's origin) fixed on 2 April and again after the range; openssl only detected;
    // zlib, which the image does not hold, fixed on 2 April.
    const dir = mkdtempSync(join(tmpdir(), 'berth-resolved-feed-'));
    mkdirSync(join(dir, 'yaml'));
    mkdirSync(join(dir, 'osv'));
    const docs = {
      busybox: yamlDocument('busybox', [
        { id: 'CGA-23cf-2222-3333', alias: 'CVE-2026-1002', events: [detectedOn('2026-03-20T00:00:00Z'), fixedOn('2026-04-02T10:00:00Z', '1.36.1-r1')] },
        { id: 'CGA-8888-9999-cccc', alias: 'CVE-2026-1003', events: [fixedOn('2026-04-05T10:00:00Z', '1.36.1-r2')] },
      ]),
      // Fixed before the range, in the version the second image has: the first image's report holds it, the second's not.
      openssl: yamlDocument('openssl', [
        { id: 'CGA-44hj-2222-3333', alias: 'CVE-2026-1001', events: [detectedOn('2026-03-20T00:00:00Z'), fixedOn('2026-03-25T00:00:00Z', '3.1.4-r0')] },
      ]),
      zlib: yamlDocument('zlib', [{ id: 'CGA-5555-6666-7777', alias: 'CVE-2026-1004', events: [fixedOn('2026-04-02T11:00:00Z', '1.3.1-r0')] }]),
    };
    for (const [name, text] of Object.entries(docs)) writeFileSync(join(dir, 'yaml', `${name}.advisories.yaml`), text);
    writeFileSync(
      join(dir, 'osv', 'CVE-2026-1001.json'),
      JSON.stringify({ schema_version: '1.6.0', id: 'CVE-2026-1001', modified: '2026-04-01T00:00:00Z', severity: [{ type: 'CVSS_V3', score: CVSS }] }),
    );
    const db = ['--data', berth.dataDir, ...(berth.databaseUrl ? ['--database', berth.databaseUrl] : [])];
    for (const args of [
      ['advisories', 'import', join(dir, 'yaml'), '--format', 'yaml', '--namespace', 'alpine'],
      ['advisories', 'import-metadata', join(dir, 'osv')],
    ]) {
      const r = await berthCli([...args, ...db]);
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    }
    // Berth re-matches both images against the imported advisories on its own time.
    const has = (id: string) => (r: RestResult) => matchSummary(r).some((m) => m.includes(` ${id} `));
    await waitForVulnReport(berth.url, owner, repoUid, first.manifest.digest, (r) => has('CVE-2026-1001')(r) && has('CVE-2026-1002')(r));
    await waitForVulnReport(berth.url, owner, repoUid, second.manifest.digest, (r) => has('CVE-2026-1002')(r) && !has('CVE-2026-1001')(r));
  });

  it('lists each day: an advisory fixed for a package of the image, and vulnerabilities gone with the tag move', async () => {
    const r = await v2(`imageRefs=tools/base&${RANGE}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(days(r.json.resolvedVulnsReports), EXPECTED);
  });

  it('takes imageRefs as repo:tags or as a JSON object, and the same message over gRPC and the v1 path', async () => {
    const json = encodeURIComponent(JSON.stringify({ repo: 'tools/base', tags: ['latest'] }));
    assert.deepEqual(days((await v2(`imageRefs=${json}&${RANGE}`)).json.resolvedVulnsReports), EXPECTED);
    assert.deepEqual(days((await v2(`imageRefs=tools/base:latest,nope&imageRefs=tools/none&${RANGE}`)).json.resolvedVulnsReports), EXPECTED);
    assert.deepEqual(
      days((await v2(`imageRefs=tools/base:nope&${RANGE}`)).json.resolvedVulnsReports),
      EXPECTED.map((d) => `${d.slice(0, 12)}`),
    );
    const v1 = await rest(berth.url, 'GET', `/advisory/v1/images/resolved_vulns?imageRefs=tools/base&${RANGE}`, { token: owner });
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual(
      days(v1.json.items).map((d) => d.replaceAll('TYPE_', '')),
      EXPECTED.map((d) => d.replaceAll('TYPE_', '')),
    );
    const at = (iso: string) => ({ seconds: BigInt(Date.parse(iso) / 1000), nanos: 0 });
    const grpc = await grpcClient(SecurityAdvisoryService, berth.url, owner).listResolvedVulnsReports({
      imageRefs: [{ repo: 'tools/base', tags: [] }],
      startTime: at('2026-04-03T00:00:00Z'),
      endTime: at('2026-04-03T00:00:00Z'),
    });
    assert.deepEqual(
      grpc.resolvedVulnsReports.map((d) => d.resolvedVulns.map((v) => v.id)),
      [['CGA-44hj-2222-3333']],
    );
  });

  it('caps the range at 366 days and needs image refs and both times', async () => {
    const ok = await v2('imageRefs=tools/base&startTime=2025-04-04T00:00:00Z&endTime=2026-04-04T00:00:00Z');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.resolvedVulnsReports.length, 366);
    const over = await v2('imageRefs=tools/base&startTime=2025-04-03T00:00:00Z&endTime=2026-04-04T00:00:00Z');
    assert.equal(over.status, 400, over.text);
    assert.match(over.text, /at most 366 days/);
    assert.equal((await v2(RANGE)).status, 400, 'no image refs');
    assert.equal((await v2('imageRefs=tools/base&startTime=2026-04-01T00:00:00Z')).status, 400, 'no end time');
    assert.equal((await v2(`imageRefs=${encodeURIComponent('{"repo":')}&${RANGE}`)).status, 400, 'malformed JSON');
  });

  it('reads only repos where the caller holds the capabilities', async () => {
    const teamB = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'team-b' } })).json.uid;
    const other = (await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: `other-${Date.now()}` } })).json.uid;
    const viewer = await (await identityWithKeys(berth, owner, berth.orgUid, 'viewer')).tokenFor(berth.url);
    const sibling = await (await identityWithKeys(berth, owner, teamB, 'viewer')).tokenFor(berth.url);
    const outsider = await (await identityWithKeys(berth, owner, other, 'viewer')).tokenFor(berth.url);
    assert.equal((await rest(berth.url, 'GET', `/advisory/v2/images/resolvedVulns?imageRefs=tools/base&${RANGE}`)).status, 401);
    assert.equal((await rest(berth.url, 'GET', `/advisory/v1/images/resolved_vulns?imageRefs=tools/base&${RANGE}`)).status, 401);
    for (const token of [sibling, outsider]) {
      const r = await v2(`imageRefs=tools/base&${RANGE}`, token);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        days(r.json.resolvedVulnsReports),
        EXPECTED.map((d) => d.slice(0, 12)),
      );
    }
    assert.deepEqual(days((await v2(`imageRefs=tools/base&${RANGE}`, viewer)).json.resolvedVulnsReports), EXPECTED);
  });
});
