// /advisory/v1/documents, /advisory/v1/metadata and /ping/v1/ping beside
// their v2 twins on the same data: the same answers in v1's names (`items`,
// FPT_TYPE_* false-positive types, unprefixed reference and severity types,
// `severity` in the singular), without a token, over REST and gRPC, with the
// v2 bounds on every parameter.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Code, ConnectError } from '@connectrpc/connect';
import { SecurityAdvisoryService as AdvisoryV1 } from '../../src/gen/berth/advisory/v1/advisory_pb.js';
import { PingService as PingV1 } from '../../src/gen/berth/ping/v1/ping_pb.js';
import { grpcClient, rest, type RestResult } from '../harness/api-client.js';
import { AGE_2, FEED, METADATA } from '../harness/advisory-feed-fixture.js';
import { writeAdvisories, writeMetadata } from '../harness/advisory-seed.js';
import { useBerth, type Berth } from '../harness/berth-process.js';

type Json = Record<string, unknown>;

/** A v2 feed answer renamed the way v1 names it. */
function asV1(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => asV1(v, key));
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      const name = k === 'documents' || k === 'vulnerabilityMetadata' ? 'items' : k === 'severities' ? 'severity' : k;
      out[name] = asV1(v, k === 'falsePositiveDetermination' ? 'fp' : k === 'type' ? key : k);
    }
    return out;
  }
  if (typeof value === 'string' && key === 'fp') return value.startsWith('TYPE_') ? `FPT_${value}` : value;
  if (typeof value === 'string' && (key === 'references' || key === 'severities')) return value.replace(/^TYPE_/, '');
  return value;
}

function ok(r: RestResult): Json {
  assert.equal(r.status, 200, r.text);
  return r.json;
}

describe('advisory and ping v1 beside v2', () => {
  let berth: Berth;
  const get = (path: string) => rest(berth.url, 'GET', path);
  useBerth(async (b) => {
    berth = b;
    await writeAdvisories(b, b.orgUid, FEED);
    await writeMetadata(b, METADATA);
  });

  it('pings without a token', async () => {
    assert.deepEqual(ok(await get('/ping/v1/ping')), { response: 'pong' });
    assert.deepEqual(ok(await get('/ping/v2/ping')), { response: 'pong' });
    assert.equal((await grpcClient(PingV1, berth.url).ping({})).response, 'pong');
  });

  it('answers the v2 documents in the v1 shape', async () => {
    for (const query of ['id=age', 'cves=CVE-2024-10002&cves=CVE-2024-20001', 'id=nosuch']) {
      const v2 = ok(await get(`/advisory/v2/documents?${query}`));
      const v1 = ok(await get(`/advisory/v1/documents?${query}`));
      assert.deepEqual(v1, asV1(v2), query);
    }
    const age = ok(await get('/advisory/v1/documents?id=age')) as { items: Array<{ advisories: Array<{ id: string; events: Json[] }> }> };
    const fp = age.items[0].advisories.find((a) => a.id === AGE_2)!.events.find((e) => e.falsePositiveDetermination);
    assert.match(String((fp?.falsePositiveDetermination as Json).type), /^FPT_TYPE_/);
    const g = await grpcClient(AdvisoryV1, berth.url).listDocuments({ id: 'age' });
    assert.deepEqual(
      g.items.map((d) => [d.id, d.advisories.length]),
      [['age', age.items[0].advisories.length]],
    );
  });

  it('answers the v2 metadata in the v1 shape, paged the same way', async () => {
    const v2 = ok(await get('/advisory/v2/metadata'));
    const v1 = ok(await get('/advisory/v1/metadata'));
    assert.deepEqual(v1, asV1(v2));
    assert.deepEqual(Object.keys(v1).sort(), ['items', 'nextPageToken', 'skipped', 'totalCount']);
    const first = (v1.items as Json[])[0];
    assert.deepEqual(first.severity, [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' }]);
    assert.deepEqual((first.references as Json[])[0], { type: 'ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2024-10001' });
    const page1 = ok(await get('/advisory/v1/metadata?pageSize=2'));
    assert.equal((page1.items as Json[]).length, 2);
    const page2 = ok(await get(`/advisory/v1/metadata?pageSize=2&pageToken=${encodeURIComponent(String(page1.nextPageToken))}`));
    assert.deepEqual(
      (page2.items as Json[]).map((m) => m.id),
      [METADATA.map((m) => m.id).sort()[2]],
    );
    assert.equal(page2.nextPageToken, '');
    const byIds = ok(await get('/advisory/v1/metadata?ids=GO-2024-3001&id=CVE-2024-10001'));
    assert.deepEqual(
      (byIds.items as Json[]).map((m) => m.id),
      ['CVE-2024-10001', 'GO-2024-3001'],
    );
    const g = await grpcClient(AdvisoryV1, berth.url).listVulnerabilityMetadata({ ids: ['GHSA-2345-6789-cfgh'] });
    assert.deepEqual(
      g.items.map((m) => [m.id, m.severity.length]),
      [['GHSA-2345-6789-cfgh', 2]],
    );
  });

  it('refuses bad input as v2 does', async () => {
    const fields = (r: RestResult) => {
      assert.equal(r.status, 400, r.text);
      return r.json.details.find((d: { '@type': string }) => d['@type'].endsWith('BadRequest'))?.fieldViolations.map((v: { field: string }) => v.field);
    };
    assert.deepEqual(fields(await get('/advisory/v1/documents')), ['id']);
    assert.deepEqual(fields(await get(`/advisory/v1/documents?id=${'a'.repeat(257)}`)), ['id']);
    assert.deepEqual(fields(await get('/advisory/v1/documents?id=age&cves=')), ['cves']);
    assert.deepEqual(fields(await get(`/advisory/v1/metadata?ids=${'x'.repeat(257)}`)), ['ids']);
    assert.equal((await get('/advisory/v1/metadata?pageSize=-1')).status, 400);
    assert.equal((await get('/advisory/v1/metadata?pageToken=forged')).status, 400);
    assert.equal((await get('/advisory/v1/metadata?orderBy=summary')).status, 400);
    assert.equal((await get('/advisory/v1/metadata?skip=-3')).status, 400);
    assert.equal((await get('/advisory/v1/documents?id=a%00b')).status, 400);
    await assert.rejects(
      grpcClient(AdvisoryV1, berth.url).listVulnerabilityMetadata({ ids: Array.from({ length: 1001 }, (_, i) => `X-${i}`) }),
      (err: unknown) => err instanceof ConnectError && err.code === Code.InvalidArgument,
    );
    await assert.rejects(
      grpcClient(AdvisoryV1, berth.url).listDocuments({}),
      (err: unknown) => err instanceof ConnectError && err.code === Code.InvalidArgument,
    );
  });
});

describe('advisory v1 with --feed-requires-auth', () => {
  let berth: Berth;
  let token: string;
  useBerth(
    (b, t) => {
      berth = b;
      token = t;
    },
    { extraArgs: ['--feed-requires-auth'] },
  );

  it('asks for a token as v2 does; ping stays open', async () => {
    for (const path of ['/advisory/v1/documents?id=age', '/advisory/v1/metadata', '/advisory/v2/metadata']) {
      assert.equal((await rest(berth.url, 'GET', path)).status, 401, path);
      assert.equal((await rest(berth.url, 'GET', path, { token })).status, 200, path);
    }
    assert.equal((await rest(berth.url, 'GET', '/ping/v1/ping')).status, 200);
  });
});
