// Vulnerability count reports over the public surface (SQLite, or PostgreSQL
// with BERTH_TEST_PG): a tag moved three times in a week by pushing four
// images with skopeo, a Grype report imported for each with `berth images
// scans import` (their layers hold no package database, so Berth's own
// reports of them are empty and the Grype ones count), then
// ListVulnCountReports and ListCumulativeVulnCountReports over REST and gRPC:
// one item per day from the day the tag appeared, the digest at the end of
// each day, ids by severity, cumulative unions; a repo name in two
// organizations answered for both; the 366-day cap; and callers
// without vuln_report.list on the repo (no token, a sibling group, another
// organization) see nothing.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { grpcClient, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli, cliEnv } from '../harness/cli-run.js';
import type { WrittenImage } from '../harness/oci-layout.js';
import { cliToken, identityWithKeys, registryHost } from '../harness/registry-client.js';
import { skopeoMissing } from '../harness/skopeo.js';
import { backdateTag, grypeReportFile, pushToTag } from '../harness/tag-moves.js';
import { VulnerabilitiesService } from '../../src/gen/berth/registry/v1/vulnerabilities_pb.js';

const cve = (n: number) => `CVE-2026-${String(n).padStart(4, '0')}`;

interface Item {
  repo: string;
  tag: string;
  date: string;
  sizeBytes: string;
  digest: string;
  vulnCounts?: { severity?: string; count?: string }[];
  scanner?: string;
  cveIds?: string[];
  critCveIds?: string[];
  highCveIds?: string[];
  medCveIds?: string[];
  lowCveIds?: string[];
  negligibleCveIds?: string[];
  unknownCveIds?: string[];
}

/** An item as "<date> <image> ids | crit | high | med | low | negligible | unknown". */
function line(item: Item, names: Map<string, string>): string {
  const l = (x?: string[]) => (x ?? []).join(',');
  return [
    `${item.date.slice(0, 10)} ${names.get(item.digest)}`,
    l(item.cveIds),
    l(item.critCveIds),
    l(item.highCveIds),
    l(item.medCveIds),
    l(item.lowCveIds),
    l(item.negligibleCveIds),
    l(item.unknownCveIds),
  ].join(' | ');
}

describe('vulnerability count reports', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let repoUid: string;
  const images: WrittenImage[] = [];
  const names = new Map<string, string>();
  const counts = (query: string, token = owner, path = 'counts') => rest(berth.url, 'GET', `/registry/v1/vuln_reports/${path}?${query}`, { token });
  const WEEK = 'repo=tools/app&tag=1.0&from=2026-03-01T00:00:00Z&to=2026-03-08T23:59:59Z';

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    const host = registryHost(berth);
    const regToken = cliToken(berth, host).token;
    // A, then three moves: B, C and D (C and D on the same day).
    for (const size of [1000, 2000, 3000, 4000]) images.push(await pushToTag(berth, host, regToken, 'tools/app', '1.0', { layers: [size] }));
    for (const [i, n] of ['A', 'B', 'C', 'D'].entries()) names.set(images[i].manifest.digest, n);
    const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}`, { token: owner });
    repoUid = repos.json.repos.find((r: { name: string }) => r.name === 'tools/app').uid;
    // Pushes happen now; the history rows are moved to the week of 2 March 2026.
    const digests = await backdateTag(berth, repoUid, '1.0', [
      '2026-03-02T10:00:00.000Z',
      '2026-03-04T09:00:00.000Z',
      '2026-03-06T08:00:00.000Z',
      '2026-03-06T20:00:00.000Z',
    ]);
    assert.deepEqual(
      digests,
      images.map((i) => i.manifest.digest),
    );

    // E: tag 2.0 since 7 March, never scanned.
    const e = await pushToTag(berth, host, regToken, 'tools/app', '2.0', { layers: [500] });
    names.set(e.manifest.digest, 'E');
    await backdateTag(berth, repoUid, '2.0', ['2026-03-07T05:00:00.000Z']);

    const env = cliEnv(mkdtempSync(join(tmpdir(), 'berth-counts-')));
    const importReport = async (image: WrittenImage, file: string) => {
      const r = await berthCli(
        [
          'images',
          'scans',
          'import',
          file,
          '--image',
          `${berth.orgName}/tools/app@${image.manifest.digest}`,
          '--credentials',
          berth.credentialsFile,
          '--api',
          berth.url,
        ],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
    };
    // A: an older report (ignored: the newest is the report) and the newest.
    await importReport(images[0], grypeReportFile('2026-03-01T00:00:00Z', [{ id: cve(99), severity: 'Critical' }]));
    await importReport(
      images[0],
      grypeReportFile('2026-03-02T11:00:00Z', [
        { id: cve(1), severity: 'High' },
        { id: cve(2), severity: 'Critical' },
        { id: 'GHSA-aaaa-bbbb-cccc', severity: 'Low', aliases: [cve(3)] },
        { id: cve(1), severity: 'Medium', pkg: 'other' },
      ]),
    );
    await importReport(
      images[1],
      grypeReportFile('2026-03-04T10:00:00Z', [
        { id: cve(2), severity: 'Critical' },
        { id: cve(4), severity: 'Medium' },
      ]),
    );
    await importReport(images[2], grypeReportFile('2026-03-06T09:00:00Z', [{ id: cve(5), severity: 'High' }]));
    await importReport(
      images[3],
      grypeReportFile('2026-03-06T21:00:00Z', [
        { id: cve(4), severity: 'Medium' },
        { id: cve(6), severity: 'Negligible' },
        { id: cve(7), severity: 'Unknown' },
      ]),
    );
  });

  it('gives one item per day from the day the tag appeared, for the digest at the end of each day', async () => {
    const r = await counts(WEEK);
    assert.equal(r.status, 200, r.text);
    const items = r.json.items as Item[];
    assert.deepEqual(
      items.map((i) => line(i, names)),
      [
        `2026-03-02 A | ${cve(1)},${cve(2)},${cve(3)} | ${cve(2)} | ${cve(1)} |  | ${cve(3)} |  | `,
        `2026-03-03 A | ${cve(1)},${cve(2)},${cve(3)} | ${cve(2)} | ${cve(1)} |  | ${cve(3)} |  | `,
        `2026-03-04 B | ${cve(2)},${cve(4)} | ${cve(2)} |  | ${cve(4)} |  |  | `,
        `2026-03-05 B | ${cve(2)},${cve(4)} | ${cve(2)} |  | ${cve(4)} |  |  | `,
        `2026-03-06 D | ${cve(4)},${cve(6)},${cve(7)} |  |  | ${cve(4)} |  | ${cve(6)} | ${cve(7)}`,
        `2026-03-07 D | ${cve(4)},${cve(6)},${cve(7)} |  |  | ${cve(4)} |  | ${cve(6)} | ${cve(7)}`,
        `2026-03-08 D | ${cve(4)},${cve(6)},${cve(7)} |  |  | ${cve(4)} |  | ${cve(6)} | ${cve(7)}`,
      ],
    );
    assert.deepEqual(
      items.map((i) => [i.repo, i.tag, i.date, i.sizeBytes]),
      [0, 0, 1, 1, 3, 3, 3].map((n, d) => ['tools/app', '1.0', `2026-03-0${d + 2}T00:00:00.000Z`, String(images[n].size)]),
    );
    const bySeverity = (i: Item) => (i.vulnCounts ?? []).map((c) => `${c.severity}=${c.count}`).join(' ');
    assert.equal(bySeverity(items[0]), 'CRITICAL=1 HIGH=1 MEDIUM=0 LOW=1 NEGLIGIBLE=0 UNKNOWN=0');
    assert.equal(bySeverity(items[6]), 'CRITICAL=0 HIGH=0 MEDIUM=1 LOW=0 NEGLIGIBLE=1 UNKNOWN=1');
    assert.deepEqual(
      items.map((i) => i.scanner),
      ['GRYPE', 'GRYPE', 'GRYPE', 'GRYPE', 'GRYPE', 'GRYPE', 'GRYPE'],
    );
  });

  it('unions the ids from the first day in the cumulative report', async () => {
    const r = await counts(WEEK, owner, 'counts_cumulative');
    assert.equal(r.status, 200, r.text);
    const ab = [1, 2, 3, 4].map(cve).join(',');
    const abd = [1, 2, 3, 4, 6, 7].map(cve).join(',');
    assert.deepEqual(
      (r.json.items as Item[]).map((i) => `${i.date.slice(0, 10)} ${names.get(i.digest)} ${(i.cveIds ?? []).join(',')} crit=${(i.critCveIds ?? []).join(',')}`),
      [
        `2026-03-02 A ${cve(1)},${cve(2)},${cve(3)} crit=${cve(2)}`,
        `2026-03-03 A ${cve(1)},${cve(2)},${cve(3)} crit=${cve(2)}`,
        `2026-03-04 B ${ab} crit=${cve(2)}`,
        `2026-03-05 B ${ab} crit=${cve(2)}`,
        `2026-03-06 D ${abd} crit=${cve(2)}`,
        `2026-03-07 D ${abd} crit=${cve(2)}`,
        `2026-03-08 D ${abd} crit=${cve(2)}`,
      ],
    );
    // From the 5th on, the union starts there.
    const later = await counts('repo=tools/app&tag=1.0&from=2026-03-05T00:00:00Z&to=2026-03-06T00:00:00Z', owner, 'counts_cumulative');
    assert.deepEqual(
      (later.json.items as Item[]).map((i) => (i.cveIds ?? []).join(',')),
      [`${cve(2)},${cve(4)}`, [2, 4, 6, 7].map(cve).join(',')],
    );
  });

  it('answers the same over gRPC, with references, and lists every tag when none is named', async () => {
    const client = grpcClient(VulnerabilitiesService, berth.url, owner);
    const from = { seconds: BigInt(Date.parse('2026-03-05T00:00:00Z') / 1000), nanos: 0 };
    const to = { seconds: BigInt(Date.parse('2026-03-06T12:00:00Z') / 1000), nanos: 0 };
    const got = await client.listVulnCountReports({ references: [{ repo: 'tools/app', tag: '1.0' }], repo: 'ignored', from, to });
    assert.deepEqual(
      got.items.map((i) => [names.get(i.digest), i.cveIds.join(','), i.sizeBytes]),
      [
        ['B', `${cve(2)},${cve(4)}`, BigInt(images[1].size)],
        ['D', [4, 6, 7].map(cve).join(','), BigInt(images[3].size)],
      ],
    );
    const all = await counts('repo=tools/app&from=2026-03-07T00:00:00Z&to=2026-03-07T00:00:00Z');
    assert.deepEqual(
      all.json.items.map((i: Item) => `${i.tag} ${names.get(i.digest)} ${i.scanner} ${(i.vulnCounts ?? []).length} ${(i.cveIds ?? []).length}`),
      ['1.0 D GRYPE 6 3', '2.0 E UNKNOWN 0 0'],
    );
    assert.deepEqual((await counts('repo=tools/none&tag=1.0')).json.items ?? [], []);
  });

  it('caps the range at 366 days and refuses a range that ends before it starts', async () => {
    const ok = await counts('repo=tools/app&tag=1.0&from=2025-03-08T00:00:00Z&to=2026-03-08T00:00:00Z');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.items.length, 7);
    const over = await counts('repo=tools/app&tag=1.0&from=2025-03-07T00:00:00Z&to=2026-03-08T00:00:00Z');
    assert.equal(over.status, 400, over.text);
    assert.match(over.text, /at most 366 days/);
    assert.equal((await counts('repo=tools/app&from=2026-03-08T00:00:00Z&to=2026-03-01T00:00:00Z')).status, 400);
    assert.equal((await counts('tag=1.0')).status, 400, 'a repo is required');
  });

  it('shows counts only to callers holding vuln_report.list on the repo', async () => {
    const teamB = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'team-b' } })).json.uid;
    const other = (await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: `other-${Date.now()}` } })).json.uid;
    const viewer = await (await identityWithKeys(berth, owner, berth.orgUid, 'viewer')).tokenFor(berth.url);
    const sibling = await (await identityWithKeys(berth, owner, teamB, 'viewer')).tokenFor(berth.url);
    const outsider = await (await identityWithKeys(berth, owner, other, 'viewer')).tokenFor(berth.url);
    for (const path of ['counts', 'counts_cumulative']) assert.equal((await rest(berth.url, 'GET', `/registry/v1/vuln_reports/${path}?${WEEK}`)).status, 401);
    for (const token of [sibling, outsider]) {
      for (const path of ['counts', 'counts_cumulative']) {
        const r = await counts(WEEK, token, path);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.json.items ?? [], []);
      }
    }
    assert.equal((await counts(WEEK, viewer)).json.items.length, 7);
  });

  it('answers a repo name held by two organizations with both', async () => {
    const second = `second-${Date.now()}`;
    const org = (await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: second } })).json.uid as string;
    const host = registryHost(berth);
    const image = await pushToTag(berth, host, cliToken(berth, host).token, 'tools/app', '1.0', { layers: [700] }, second);
    const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${org}`, { token: owner });
    const otherRepo = repos.json.repos.find((r: { name: string }) => r.name === 'tools/app').uid as string;
    await backdateTag(berth, otherRepo, '1.0', ['2026-03-07T01:00:00.000Z']);
    const r = await counts('repo=tools/app&tag=1.0&from=2026-03-07T00:00:00Z&to=2026-03-07T00:00:00Z');
    assert.deepEqual(
      r.json.items.map((i: Item & { repoId: string }) => [i.repoId, i.digest]).sort(),
      [
        [repoUid, images[3].manifest.digest],
        [otherRepo, image.manifest.digest],
      ].sort(),
    );
    // Someone bound only in the first organization sees its repo alone.
    const viewer = await (await identityWithKeys(berth, owner, berth.orgUid, 'viewer')).tokenFor(berth.url);
    assert.deepEqual(
      (await counts('repo=tools/app&tag=1.0&from=2026-03-07T00:00:00Z&to=2026-03-07T00:00:00Z', viewer)).json.items.map((i: { repoId: string }) => i.repoId),
      [repoUid],
    );
  });
});
