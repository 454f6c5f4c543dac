// Scanner reports over the public surface: an image pushed with skopeo, a
// Grype and a Trivy report imported with `berth images scans import`, then
// ListVulnReports (REST and gRPC) lists both with the mapped fields and
// GetRawVulnReport gives back the exact bytes; a referrer pushed by plain
// HTTP with a recognised artifactType is stored the same way, one with another
// type is not; a file that is no report is refused before anything is pushed;
// and callers without vuln_report.list on the repo (no token, a sibling
// group, another organization) see nothing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { grpcClient, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { berthCli, cliEnv } from '../harness/cli-run.js';
import { writeImage, type WrittenImage } from '../harness/oci-layout.js';
import { basic, cliToken, identityWithKeys, registryHost } from '../harness/registry-client.js';
import { openBerthStore } from '../harness/registry-content.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';
import { Scanner_Name, VulnerabilitiesService } from '../../src/gen/berth/registry/v1/vulnerabilities_pb.js';
import { parseScannerReport } from '../../src/scanning/scanner-reports/parse-scanner-report.js';
import { storeScannerReport } from '../../src/scanning/scanner-reports/store-scanner-report.js';
import { transact } from '../../src/store/transact.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'scanner-reports');
const GRYPE = join(FIXTURES, 'grype-alpine.json');
const TRIVY = join(FIXTURES, 'trivy-alpine.json');
const TRIVY_TYPE = 'application/vnd.aquasecurity.trivy.report+json';
const sha = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe('scanner reports', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let regToken: string;
  let image: WrittenImage;
  let digest: string;
  let repoUid: string;
  const env = () => cliEnv(mkdtempSync(join(tmpdir(), 'berth-scans-')));
  const cli = (...args: string[]) =>
    berthCli(['images', 'scans', 'import', ...args, '--credentials', berth.credentialsFile, '--api', berth.url], { env: env() });
  /** ListVulnReports, scanners' reports only: Berth's own report of the image (scanner BERTH) is listed too, and is vuln-report.test.ts's subject. */
  const reports = async (query: string, token = owner) => {
    const r = await rest(berth.url, 'GET', `/registry/v1/vuln_reports?${query}`, { token });
    if (Array.isArray(r.json?.items)) r.json.items = r.json.items.filter((i: { scanner: { name: string } }) => i.scanner.name !== 'BERTH');
    return r;
  };

  /** Polls ListVulnReports until `count` reports of the digest are listed. */
  async function until(count: number, query = `digest=${digest}`): Promise<Array<Record<string, unknown>>> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await reports(query);
      assert.equal(r.status, 200, r.text);
      if ((r.json.items ?? []).length >= count || Date.now() > deadline) return r.json.items ?? [];
      await new Promise((res) => setTimeout(res, 200));
    }
  }

  /** Pushes a referrer of the image by plain HTTP, as any client would; returns its digest. */
  async function pushReferrer(artifactType: string, ...layerBytes: Uint8Array[]): Promise<string> {
    const tokenAnswer = await fetch(`${berth.registryUrl}/token?scope=repository:${berth.orgName}/tools/app:pull,push`, {
      headers: { authorization: basic('_token', regToken) },
    });
    const bearer = { authorization: `Bearer ${((await tokenAnswer.json()) as { token: string }).token}` };
    const base = `${berth.registryUrl}/v2/${berth.orgName}/tools/app`;
    const pushBlob = async (bytes: Uint8Array) => {
      const r = await fetch(`${base}/blobs/uploads/?digest=${sha(bytes)}`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      assert.equal(r.status, 201, await r.text());
      return { digest: sha(bytes), size: bytes.byteLength };
    };
    const config = { mediaType: 'application/vnd.oci.empty.v1+json', ...(await pushBlob(Buffer.from('{}'))) };
    const layers = [];
    for (const b of layerBytes) layers.push({ mediaType: 'application/json', ...(await pushBlob(b)) });
    const subject = { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest, size: image.manifest.size };
    const manifest = Buffer.from(
      JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', artifactType, config, layers, subject }),
    );
    const r = await fetch(`${base}/manifests/${sha(manifest)}`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      body: manifest,
    });
    assert.equal(r.status, 201, await r.text());
    return sha(manifest);
  }

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(async () => {
    host = registryHost(berth);
    regToken = cliToken(berth, host).token;
    const layout = mkdtempSync(join(tmpdir(), 'berth-scanned-'));
    image = await writeImage(layout, '1.0', { layers: [2000] });
    const pushed = await skopeo([
      'copy',
      '--preserve-digests',
      ...creds('dest', '_token', regToken),
      `oci:${layout}:1.0`,
      `docker://${host}/${berth.orgName}/tools/app:1.0`,
    ]);
    assert.equal(pushed.code, 0, pushed.stderr);
    digest = image.manifest.digest;
    const repos = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}`, { token: owner });
    repoUid = repos.json.repos.find((r: { name: string }) => r.name === 'tools/app').uid;
  });

  it('imports a Grype and a Trivy report with the CLI and lists both with the mapped fields', async () => {
    const grype = await cli(GRYPE, '--image', `${berth.orgName}/tools/app:1.0`);
    assert.equal(grype.code, 0, grype.stderr);
    const [referrer, stored] = grype.stdout.trim().split('\n');
    assert.match(referrer, /^sha256:[0-9a-f]{64}$/);
    assert.equal(stored, `stored: GRYPE 0.79.3 report of ${digest} made 2025-03-14T15:49:15.473Z, 5 vulnerabilities`);
    assert.match(grype.stderr, /the report names sha256:ca738abb/); // the fixture names another digest: the image given wins

    const trivy = await cli(TRIVY, '--image', `${berth.orgName}/tools/app@${digest}`, '-o', 'json');
    assert.equal(trivy.code, 0, trivy.stderr);
    const out = JSON.parse(trivy.stdout);
    assert.deepEqual(
      { ...out, referrer: undefined },
      {
        referrer: undefined,
        subject: digest,
        scanner: 'TRIVY',
        version: '0.58.1',
        createdAt: '2021-08-25T12:20:30.000Z',
        vulnerabilities: 8,
        stored: true,
      },
    );

    const items = await until(2);
    assert.equal(items.length, 2);
    const [g, t] = items as Array<{ digest: string; scanner: Record<string, string>; createdAt: string; vulnerabilities: Array<Record<string, unknown>> }>;
    assert.deepEqual(
      [g.digest, g.scanner, g.createdAt],
      [digest, { name: 'GRYPE', version: '0.79.3', dbBuildTime: '2025-03-14T01:31:06.000Z' }, '2025-03-14T15:49:15.473Z'],
    );
    assert.deepEqual([t.digest, t.scanner, t.createdAt], [digest, { name: 'TRIVY', version: '0.58.1' }, '2021-08-25T12:20:30.000Z']);
    assert.deepEqual(g.vulnerabilities[1], {
      id: 'GHSA-3f63-hfp8-52jq',
      aliases: ['CVE-2023-50447'],
      purls: ['pkg:pypi/pillow@10.1.0'],
      description: 'Arbitrary Code Execution in Pillow',
      details: '',
      severity: 'HIGH',
      cvss: [{ score: '9.8', version: '3.1' }],
      fix: { versions: ['10.2.0'], state: 'FIXED' },
      relatedUrls: ['https://github.com/advisories/GHSA-3f63-hfp8-52jq'],
      locations: ['/usr/lib/python3.12/site-packages/Pillow-10.1.0.dist-info/METADATA', '/usr/lib/python3.12/site-packages/Pillow-10.1.0.dist-info/RECORD'],
      package: { name: 'Pillow', version: '10.1.0', purl: 'pkg:pypi/pillow@10.1.0', type: 'python' },
    });
    assert.deepEqual(
      g.vulnerabilities.map((v) => v.severity),
      ['CRITICAL', 'HIGH', 'NEGLIGIBLE', 'NEGLIGIBLE', 'MEDIUM'],
    );
    const split = t.vulnerabilities.find((v) => v.id === 'CVE-2023-5678');
    assert.deepEqual(split?.fix, { versions: ['3.0.13-r0', '1.1.1w-r1'], state: 'FIXED' });
    assert.equal(
      t.vulnerabilities.some((v) => v.id === 'CVE-2022-0001'),
      false,
      'not_affected is dropped',
    );

    // The same over gRPC.
    const grpc = await grpcClient(VulnerabilitiesService, berth.url, owner).listVulnReports({ digest });
    assert.deepEqual(
      grpc.items.filter((i) => i.scanner?.name !== Scanner_Name.BERTH).map((i) => [i.scanner?.version, i.vulnerabilities.length]),
      [
        ['0.79.3', 5],
        ['0.58.1', 8],
      ],
    );
  });

  it('filters by scanner, version, time, repo and tag', async () => {
    const names = async (q: string) => ((await reports(q)).json.items ?? []).map((i: { scanner: { name: string } }) => i.scanner.name);
    assert.deepEqual(await names(`digest=${digest}&scanner.name=TRIVY`), ['TRIVY']);
    assert.deepEqual(await names(`digest=${digest}&scanner.version=0.79.3`), ['GRYPE']);
    assert.deepEqual(await names(`digest=${digest}&scanner.dbBuildTime=2025-03-14T01:31:06Z`), ['GRYPE']);
    assert.deepEqual(await names(`digest=${digest}&createdSince=2022-01-01T00:00:00Z`), ['GRYPE']);
    assert.deepEqual(await names(`repoId=${repoUid}&tag=1.0`), ['GRYPE', 'TRIVY']);
    assert.deepEqual(await names(`repoId=${repoUid}&tag=nope`), []);
    assert.deepEqual(await names(`repoId=${repoUid}`), ['GRYPE', 'TRIVY']);
    // digest wins over repoId, and tag is ignored with it.
    assert.deepEqual(await names(`digest=${digest}&repoId=${berth.orgUid}/none&tag=nope`), ['GRYPE', 'TRIVY']);
    assert.equal((await reports('digest=sha256:nothex')).status, 400);
  });

  it('gives back the raw report byte for byte, the latest or the one of a time', async () => {
    const raw = async (q: string) => rest(berth.url, 'GET', `/registry/v1/vuln_reports/raw?${q}`, { token: owner });
    const g = await raw(`digest=${digest}&scanner=GRYPE`);
    assert.equal(g.status, 200, g.text);
    assert.equal(g.json.rawReport, readFileSync(GRYPE, 'utf8'));
    assert.deepEqual([g.json.digest, g.json.scanner, g.json.createdAt], [digest, 'GRYPE', '2025-03-14T15:49:15.473Z']);
    const t = await raw(`digest=${digest}&scanner=TRIVY&createdAt=2021-08-25T12:20:30Z`);
    assert.equal(t.status, 200, t.text);
    assert.equal(t.json.rawReport, readFileSync(TRIVY, 'utf8'));
    assert.equal((await raw(`digest=${digest}&scanner=TRIVY&createdAt=2021-08-25T12:20:31Z`)).status, 404);
    assert.equal((await raw(`digest=${digest}`)).status, 400);
  });

  it('stores a report once however often it is imported', async () => {
    const again = await cli(GRYPE, '--image', `${berth.orgName}/tools/app:1.0`, '-o', 'id', '--no-wait');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^sha256:[0-9a-f]{64}\n$/);
    assert.equal((await reports(`digest=${digest}`)).json.items.length, 2);
  });

  it('ingests a referrer pushed by plain HTTP with a recognised artifactType, and ignores other types', async () => {
    const trivy = JSON.parse(readFileSync(TRIVY, 'utf8'));
    trivy.CreatedAt = '2024-06-01T08:00:00Z';
    await pushReferrer('application/vnd.example.report+json', Buffer.from(JSON.stringify({ ...trivy, CreatedAt: '2024-06-02T08:00:00Z' })));
    await pushReferrer('application/vnd.aquasecurity.trivy.report+json', Buffer.from(JSON.stringify(trivy)));
    const items = (await until(3)) as Array<{ createdAt: string; scanner: { name: string } }>;
    assert.deepEqual(
      items.map((i) => [i.scanner.name, i.createdAt]),
      [
        ['GRYPE', '2025-03-14T15:49:15.473Z'],
        ['TRIVY', '2024-06-01T08:00:00.000Z'],
        ['TRIVY', '2021-08-25T12:20:30.000Z'],
      ],
    );
  });

  it('refuses a file that is no scanner report before pushing anything', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'berth-sbom-')), 'sbom.json');
    writeFileSync(file, JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [] }));
    const r = await cli(file, '--image', `${berth.orgName}/tools/app:1.0`);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /neither Grype JSON .* nor Trivy JSON/);
    const refs = await fetch(`${berth.registryUrl}/v2/${berth.orgName}/tools/app/referrers/${digest}`, {
      headers: {
        authorization: `Bearer ${await (await fetch(`${berth.registryUrl}/token?scope=repository:${berth.orgName}/tools/app:pull`, { headers: { authorization: basic('_token', regToken) } }).then((x) => x.json() as Promise<{ token: string }>)).token}`,
      },
    });
    assert.equal(((await refs.json()) as { manifests: unknown[] }).manifests.length, 4, 'two imports and two plain pushes, nothing more');
  });

  it('shows reports only to callers holding vuln_report.list on the repo', async () => {
    // A report in a repo of group team-a (stored with the writer, as the scanner-report job does).
    const teamA = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'team-a' } })).json.uid;
    const teamB = (await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'team-b' } })).json.uid;
    const teamRepo = (await rest(berth.url, 'POST', `/registry/v2/repos/${teamA}`, { token: owner, body: { name: 'svc' } })).json.uid;
    const store = await openBerthStore(berth);
    try {
      const raw = readFileSync(GRYPE);
      await transact(store, (tx) => storeScannerReport(tx, { repoUid: teamRepo, digest, report: parseScannerReport(raw), raw, now: new Date().toISOString() }));
    } finally {
      await store.close();
    }
    const other = (await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: `other-${Date.now()}` } })).json.uid;
    const viewerA = await (await identityWithKeys(berth, owner, teamA, 'viewer')).tokenFor(berth.url);
    const viewerB = await (await identityWithKeys(berth, owner, teamB, 'viewer')).tokenFor(berth.url);
    const outsider = await (await identityWithKeys(berth, owner, other, 'viewer')).tokenFor(berth.url);

    assert.equal((await rest(berth.url, 'GET', `/registry/v1/vuln_reports?digest=${digest}`)).status, 401);
    assert.equal((await rest(berth.url, 'GET', `/registry/v1/vuln_reports/raw?digest=${digest}&scanner=GRYPE`)).status, 401);
    for (const token of [viewerB, outsider]) {
      assert.deepEqual((await reports(`digest=${digest}`, token)).json.items ?? [], []);
      assert.deepEqual((await reports(`repoId=${repoUid}`, token)).json.items ?? [], []);
      assert.equal((await rest(berth.url, 'GET', `/registry/v1/vuln_reports/raw?digest=${digest}&scanner=GRYPE`, { token })).status, 404);
    }
    // team-a's viewer sees team-a's report, not the organization's.
    const seen = (await reports(`digest=${digest}`, viewerA)).json.items;
    assert.equal(seen.length, 1);
    const raw = await rest(berth.url, 'GET', `/registry/v1/vuln_reports/raw?digest=${digest}&scanner=TRIVY`, { token: viewerA });
    assert.equal(raw.status, 404);
    // The owner sees both repos' reports of the digest.
    assert.equal((await reports(`digest=${digest}`)).json.items.length, 4);
  });

  it('fails the job of a referrer whose layer is no report, or that has two layers, with the reason, and stores nothing', async () => {
    const sbom = await pushReferrer(TRIVY_TYPE, Buffer.from(JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [] })));
    const deep = await pushReferrer(TRIVY_TYPE, Buffer.from(`${'['.repeat(200)}${']'.repeat(200)}`));
    const two = await pushReferrer(TRIVY_TYPE, readFileSync(TRIVY), readFileSync(GRYPE));
    const store = await openBerthStore(berth);
    try {
      const errors = async () => {
        const rows = await store.db
          .selectFrom('scan_jobs')
          .select(['digest', 'error'])
          .where('kind', '=', 'scanner-report')
          .where('digest', 'in', [sbom, deep, two])
          .execute();
        return new Map(rows.map((r) => [r.digest, r.error]));
      };
      const deadline = Date.now() + 30_000;
      let seen = await errors();
      while ([sbom, deep, two].some((d) => !seen.get(d)) && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 200));
        seen = await errors();
      }
      assert.match(seen.get(sbom) ?? '', /neither Grype JSON .* nor Trivy JSON/);
      assert.match(seen.get(deep) ?? '', /nested deeper than 64 levels/);
      assert.match(seen.get(two) ?? '', /exactly one layer \(this one has several\)/);
    } finally {
      await store.close();
    }
    assert.equal((await reports(`digest=${digest}`)).json.items.length, 4);
  });
});
