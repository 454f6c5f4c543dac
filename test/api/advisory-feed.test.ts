// The advisory feed (/advisory/v2) on a real server: documents grouped by
// origin package and CGA id from what was imported into the organization
// only (approved events merged by content, oldest first, in the feed's own
// event shape), the id and cves filters and their bounds; vulnerability
// metadata paged, ordered and counted by the list engine, at most 1000 ids.
// Both answer without a token by default. The data is planted the way the
// writers store it (test/harness/advisory-seed.ts), for the states an import cannot make
// (pending/rejected/patched events, a fix with a note, rows with different
// aliases); golden files hold the exact JSON.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { SecurityAdvisoryService } from '../../src/gen/berth/advisory/v2/advisory_pb.js';
import { grpcClient, rest } from '../harness/api-client.js';
import { AGE_1, AGE_2, CURL_1, CURL_PENDING, FEED, METADATA, OUTSIDE, OUTSIDE_ID } from '../harness/advisory-feed-fixture.js';
import { writeAdvisories, writeMetadata, type MetadataSeed } from '../harness/advisory-seed.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { assertGolden } from '../harness/golden.js';

function grpcCode(err: unknown): Code {
  assert.ok(err instanceof ConnectError, String(err));
  return err.code;
}

// Metadata rows beyond the fixture's, for paging: CVE-2023-00000 … CVE-2023-00029.
const PAGING: MetadataSeed[] = Array.from({ length: 30 }, (_, i) => ({
  id: `CVE-2023-${String(i).padStart(5, '0')}`,
  summary: `paging row ${i}`,
  details: '',
  references: [],
  severities: [],
  modified: '2023-01-01T00:00:00.000Z',
}));
const ALL_IDS = [...METADATA, ...PAGING].map((m) => m.id).sort();

describe('advisory feed', () => {
  let berth: Berth;
  let token: string;
  // Anonymous, as the feed is served by default.
  const get = (path: string) => rest(berth.url, 'GET', path);
  const seen: string[] = [];
  const documents = async (query: string) => {
    const r = await get(`/advisory/v2/documents?${query}`);
    assert.equal(r.status, 200, r.text);
    seen.push(r.text);
    return r.json as {
      documents?: Array<{ id: string; advisories: Array<{ id: string; aliases?: string[]; packageNamespace?: string; events?: unknown[] }> }>;
    };
  };
  const ids = (doc: Awaited<ReturnType<typeof documents>>) => (doc.documents ?? []).map((d) => [d.id, d.advisories.map((a) => a.id)]);

  useBerth((b, t) => {
    berth = b;
    token = t;
  });

  it('answers an empty feed before anything is imported, and an empty metadata list', async () => {
    assert.deepEqual(ids(await documents('id=age')), []);
    const m = await get('/advisory/v2/metadata');
    assert.equal(m.status, 200, m.text);
    assert.deepEqual(m.json.vulnerabilityMetadata ?? [], []);
    assert.equal(m.json.totalCount, '0');
  });

  it('plants the feed in the organization and an operator advisory beside it and in a team group', async () => {
    await writeAdvisories(berth, berth.orgUid, FEED);
    await writeAdvisories(berth, berth.orgUid, OUTSIDE, 'api');
    const team = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token, body: { name: 'security-team' } });
    assert.equal(team.status, 200, team.text);
    await writeAdvisories(berth, team.json.uid as string, OUTSIDE, 'api');
    await writeMetadata(berth, [...METADATA, ...PAGING]);
  });

  it('groups one origin package into one document, each CGA id once with its rows merged', async () => {
    const age = await documents('id=age');
    assertGolden('advisory/documents-age', age);
    assert.deepEqual(ids(age), [['age', [AGE_1, AGE_2]]]);
    const [first, second] = age.documents![0].advisories;
    // Three rows (x86_64, aarch64, the age-utils subpackage): aliases united and sorted.
    assert.deepEqual(first.aliases, ['CVE-2024-10001', 'GHSA-2345-6789-cfgh', 'GO-2024-3001']);
    assert.equal(first.packageNamespace, 'wolfi');
    // The same detection and fix on two architectures count once; the subpackage's own detection is kept;
    // the pending true-positive and the patched event (no such case in the feed) are not there.
    type Ev = { timestamp: string; detection?: { scanv1: Record<string, string> }; fixed?: Record<string, string> };
    const events = first.events as Ev[];
    assert.deepEqual(
      events.map((e) => [e.timestamp, e.detection?.scanv1.subpackageName ?? 'fixed']),
      [
        ['2024-03-01T10:00:00.000Z', 'age'],
        ['2024-03-01T10:05:00.000Z', 'age-utils'],
        ['2024-03-05T08:30:00.000Z', 'fixed'],
      ],
    );
    // The feed's names for scanv1 (subpackageName, componentName); a fix without its note.
    assert.deepEqual(
      {
        ...events[0].detection?.scanv1,
      },
      {
        scanner: 'grype',
        subpackageName: 'age',
        componentId: '02c890e439f7e6b4',
        componentName: 'stdlib',
        componentVersion: 'go1.22.5',
        componentType: 'go-module',
        componentLocation: '/usr/bin/age',
        artifactVersion: '',
        scannerVersion: '',
        grypeDbBuilt: '',
        grypeDbChecksum: '',
      },
    );
    assert.deepEqual(events[2].fixed, { fixedVersion: '1.2.0-r2', scannerVersion: '', grypeDbBuilt: '', grypeDbChecksum: '' });
    // Oldest first, whatever order they were written in; the rejected fix is left out.
    assert.deepEqual(
      second.events?.map((e) => Object.keys(e as object).find((k) => k !== 'timestamp')),
      ['detection', 'analysisNotPlanned', 'falsePositiveDetermination'],
    );
  });

  it('leaves out an advisory with no approved event', async () => {
    const curl = await documents('id=curl');
    assert.deepEqual(ids(curl), [['curl', [CURL_1]]]);
    assert.equal(curl.documents![0].advisories[0].packageNamespace, 'chainguard');
    assert.deepEqual(ids(await documents('cves=CVE-2024-20002')), []);
    assert.ok(!JSON.stringify(curl).includes(CURL_PENDING));
  });

  it('filters by cves (any of them, repeated key), across origins, and by id and cves together', async () => {
    const both = await documents('cves=CVE-2024-10002&cves=CVE-2024-20001');
    assertGolden('advisory/documents-cves', both);
    assert.deepEqual(ids(both), [
      ['age', [AGE_2]],
      ['curl', [CURL_1]],
    ]);
    assert.deepEqual(ids(await documents('cves=GO-2024-3001')), [['age', [AGE_1]]]);
    assert.deepEqual(ids(await documents('id=curl&cves=CVE-2024-10002')), []);
    assert.deepEqual(ids(await documents('id=age&cves=CVE-2024-10002')), [['age', [AGE_2]]]);
    assert.deepEqual(ids(await documents('id=nosuch')), []);
    // `a,b` is one value, as everywhere.
    assert.deepEqual(ids(await documents('cves=CVE-2024-10002,CVE-2024-20001')), []);
  });

  it('never shows advisories created through the API or kept in other groups, even on the same package and alias', async () => {
    assert.deepEqual(ids(await documents('cves=CVE-2024-99999')), []);
    assert.deepEqual(ids(await documents('cves=CVE-2024-10001')), [['age', [AGE_1]]]);
    for (const text of seen) assert.ok(!text.includes(OUTSIDE_ID), 'an operator advisory leaked into the feed');
  });

  it('serves the same documents over gRPC, with or without a token', async () => {
    const anonymous = await grpcClient(SecurityAdvisoryService, berth.url).listDocuments({ id: 'age' });
    const withToken = await grpcClient(SecurityAdvisoryService, berth.url, token).listDocuments({ id: 'age' });
    assert.deepEqual(
      anonymous.documents.map((d) => d.advisories.map((a) => [a.id, a.events.length])),
      [
        [
          [AGE_1, 3],
          [AGE_2, 3],
        ],
      ],
    );
    assert.deepEqual(withToken, anonymous);
  });

  it('refuses an unbounded or malformed documents request', async () => {
    const none = await get('/advisory/v2/documents');
    assert.equal(none.status, 400, none.text);
    assert.equal(none.json.code, Code.InvalidArgument);
    assert.equal(none.json.details[0].domain, 'advisory.berth.dev');
    assert.equal(none.json.details[1].fieldViolations[0].field, 'id');
    assert.equal((await get(`/advisory/v2/documents?id=${'a'.repeat(257)}`)).status, 400);
    assert.equal((await get('/advisory/v2/documents?cves=')).status, 400);
    assert.equal((await get('/advisory/v2/documents?id=age%00x')).status, 400);
    const client = grpcClient(SecurityAdvisoryService, berth.url);
    const many = Array.from({ length: 1001 }, (_, i) => `CVE-2024-${String(i).padStart(5, '0')}`);
    await assert.rejects(client.listDocuments({ cves: many }), (e) => grpcCode(e) === Code.InvalidArgument);
    // 1000 distinct (with repeats) is the bound, not more.
    const ok = await client.listDocuments({ cves: [...many.slice(0, 999), 'CVE-2024-10002', 'CVE-2024-10002'] });
    assert.deepEqual(
      ok.documents.map((d) => d.id),
      ['age'],
    );
  });

  it('lists vulnerability metadata in id order, paged, with totalCount and skip', async () => {
    const first = await get('/advisory/v2/metadata?pageSize=10');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.totalCount, String(ALL_IDS.length));
    const walked: string[] = [];
    let page = first.json;
    for (let i = 0; i < 10; i++) {
      walked.push(...page.vulnerabilityMetadata.map((m: { id: string }) => m.id));
      if (!page.nextPageToken) break;
      const next = await get(`/advisory/v2/metadata?pageSize=10&pageToken=${encodeURIComponent(page.nextPageToken)}`);
      assert.equal(next.status, 200, next.text);
      page = next.json;
    }
    assert.deepEqual(walked, ALL_IDS);
    const desc = await get('/advisory/v2/metadata?orderBy=id%20desc&pageSize=200');
    assert.deepEqual(
      desc.json.vulnerabilityMetadata.map((m: { id: string }) => m.id),
      [...ALL_IDS].reverse(),
    );
    const skipped = await get('/advisory/v2/metadata?skip=5&pageSize=3');
    assert.equal(skipped.json.skipped, 5);
    assert.deepEqual(
      skipped.json.vulnerabilityMetadata.map((m: { id: string }) => m.id),
      ALL_IDS.slice(5, 8),
    );
    const badOrder = await get('/advisory/v2/metadata?orderBy=summary');
    assert.equal(badOrder.status, 400, badOrder.text);
    assert.equal(badOrder.json.details[0].domain, 'advisory.berth.dev');
    // A page token belongs to its query.
    const other = await get(`/advisory/v2/metadata?pageSize=10&orderBy=id%20desc&pageToken=${encodeURIComponent(first.json.nextPageToken)}`);
    assert.equal(other.status, 400, other.text);
  });

  it('selects metadata by id and ids (merged, repeated key) and matches the golden JSON', async () => {
    const r = await get('/advisory/v2/metadata?id=GO-2024-3001&ids=CVE-2024-10001&ids=GHSA-2345-6789-cfgh&ids=CVE-2024-10001&ids=CVE-1999-00000');
    assert.equal(r.status, 200, r.text);
    assertGolden('advisory/metadata', r.json);
    assert.deepEqual(
      r.json.vulnerabilityMetadata.map((m: { id: string }) => m.id),
      ['CVE-2024-10001', 'GHSA-2345-6789-cfgh', 'GO-2024-3001'],
    );
    assert.equal(r.json.totalCount, '3');
    const one = await get('/advisory/v2/metadata?id=CVE-2024-10001');
    assert.deepEqual(
      one.json.vulnerabilityMetadata[0].references.map((x: { type: string }) => x.type),
      ['TYPE_ADVISORY', 'TYPE_WEB'],
    );
    assert.deepEqual(one.json.vulnerabilityMetadata[0].severities, [{ type: 'TYPE_CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' }]);
    const paged = await get('/advisory/v2/metadata?ids=CVE-2023-00001&ids=CVE-2023-00002&ids=CVE-2023-00003&pageSize=2');
    assert.equal(paged.json.totalCount, '3');
    assert.equal(paged.json.vulnerabilityMetadata.length, 2);
    const rest2 = await get(
      `/advisory/v2/metadata?ids=CVE-2023-00001&ids=CVE-2023-00002&ids=CVE-2023-00003&pageSize=2&pageToken=${encodeURIComponent(paged.json.nextPageToken)}`,
    );
    assert.deepEqual(
      rest2.json.vulnerabilityMetadata.map((m: { id: string }) => m.id),
      ['CVE-2023-00003'],
    );
  });

  it('accepts 1000 distinct metadata ids and refuses 1001', async () => {
    const client = grpcClient(SecurityAdvisoryService, berth.url);
    const thousand = Array.from({ length: 999 }, (_, i) => `CVE-2022-${String(i).padStart(5, '0')}`);
    const ok = await client.listVulnerabilityMetadata({ id: 'CVE-2024-10001', ids: [...thousand, 'CVE-2024-10001'] });
    assert.deepEqual(
      ok.vulnerabilityMetadata.map((m) => m.id),
      ['CVE-2024-10001'],
    );
    await assert.rejects(
      client.listVulnerabilityMetadata({ id: 'CVE-2024-10001', ids: [...thousand, 'CVE-2022-99999'] }),
      (e) => grpcCode(e) === Code.InvalidArgument,
    );
    const empty = await get('/advisory/v2/metadata?ids=');
    assert.equal(empty.status, 400, empty.text);
  });
});

describe('advisory feed with --feed-requires-auth', () => {
  let berth: Berth;
  let token: string;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--feed-requires-auth'] },
  );

  it('asks for a token (any identity) on both endpoints, and on nothing else', async () => {
    for (const path of ['/advisory/v2/documents?id=age', '/advisory/v2/metadata']) {
      const anonymous = await rest(berth.url, 'GET', path);
      assert.equal(anonymous.status, 401, anonymous.text);
      assert.equal(anonymous.json.code, Code.Unauthenticated);
      assert.equal(anonymous.json.details[0].domain, 'advisory.berth.dev');
      assert.equal((await rest(berth.url, 'GET', path, { token: 'not-a-token' })).status, 401);
      const authed = await rest(berth.url, 'GET', path, { token });
      assert.equal(authed.status, 200, authed.text);
    }
    await assert.rejects(grpcClient(SecurityAdvisoryService, berth.url).listVulnerabilityMetadata({}), (e) => grpcCode(e) === Code.Unauthenticated);
    // Other anonymous RPCs stay anonymous.
    assert.equal((await rest(berth.url, 'GET', '/ping/v2/ping')).status, 200);
  });
});
