// Inventories of pushed images, end to end: skopeo pushes images with real
// package databases, the scan job inventories them, and the v1 SBOM
// endpoints serve their packages (Sbom2 and an SPDX 2.3 document); an index
// answers with the union of its platforms; an SPDX referrer pushed later adds
// its packages to the subject; callers without the capabilities at the repo
// see nothing.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { identityWithRole, rest } from '../harness/api-client.js';
import { useBerth, type Berth } from '../harness/berth-process.js';
import { writeImage, writeMultiArchImage } from '../harness/oci-layout.js';
import { cliToken, registryHost } from '../harness/registry-client.js';
import { RepoClient } from '../harness/registry-gc.js';
import { alpineLayers, rawSbomPath, sbomPath, spdxWith, waitForSbom } from '../harness/scan-images.js';
import { berthCli, cliEnv } from '../harness/cli-run.js';
import { creds, skopeo, skopeoMissing } from '../harness/skopeo.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `berth-${p}-`));

interface Pkg {
  id: string;
  name: string;
  version: string;
  license: string;
  description: string;
  purl: string;
}

describe('image inventories and the v1 SBOM endpoints', { skip: skopeoMissing }, () => {
  let berth: Berth;
  let owner: string;
  let host: string;
  let regToken: string;

  useBerth((b, t) => {
    berth = b;
    owner = t;
  });

  before(() => {
    host = registryHost(berth);
    regToken = cliToken(berth, host).token;
  });

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
  const repoUid = async (name: string): Promise<string> => {
    const r = await rest(berth.url, 'GET', `/registry/v2/repos?uidp.children_of=${berth.orgUid}&page_size=100`, { token: owner });
    const repo = r.json.repos.find((x: { name: string }) => x.name === name);
    assert.ok(repo, r.text);
    return repo.uid as string;
  };
  const packagesOf = (r: { json: { packages?: Pkg[] } }) => r.json.packages ?? [];
  const purls = (r: { json: { packages?: Pkg[] } }) => packagesOf(r).map((p) => p.purl);

  let alpine: { repo: string; digest: string };
  let referrer: string;

  it('inventories an Alpine-like image and serves its apk packages with purls, then the same as SPDX 2.3', async () => {
    const layout = tmp('alpine');
    const image = await writeImage(layout, '3.19', {
      fileLayers: [
        ...alpineLayers([
          { name: 'musl', version: '1.2.4_git20230717-r4', license: 'MIT' },
          { name: 'busybox', version: '1.36.1-r15', license: 'GPL-2.0-only' },
          { name: 'ssl_client', version: '1.36.1-r15', origin: 'busybox', license: 'GPL-2.0-only' },
        ]),
        // What the inventory cannot read is said in the SPDX document, not dropped in silence.
        { 'usr/lib/node_modules/nameless/package.json': '{"description":"no name, no version"}' },
      ],
    });
    await push(layout, '3.19', 'scan/alpine');
    alpine = { repo: await repoUid('scan/alpine'), digest: image.manifest.digest };

    const sbom = await waitForSbom(berth.url, owner, alpine.repo, alpine.digest);
    const pkgs = packagesOf(sbom);
    assert.deepEqual(pkgs.map((p) => `${p.name}@${p.version}`).sort(), ['busybox@1.36.1-r15', 'musl@1.2.4_git20230717-r4', 'ssl_client@1.36.1-r15']);
    for (const p of pkgs) {
      assert.match(p.purl, new RegExp(`^pkg:apk/alpine/${p.name}@${p.version.replace(/[.]/g, '\\.')}`), p.purl);
      assert.equal(p.id, p.purl);
    }
    assert.equal(pkgs.find((p) => p.name === 'busybox')?.license, 'GPL-2.0-only');

    const raw = await rest(berth.url, 'GET', rawSbomPath(alpine.repo, alpine.digest), { token: owner });
    assert.equal(raw.status, 200, raw.text);
    assert.equal(raw.json.mediaType, 'application/spdx+json');
    const doc = JSON.parse(raw.json.rawSbom);
    // SPDX 2.3's required document fields (clause 6) and, per package, clause 7's.
    assert.equal(doc.spdxVersion, 'SPDX-2.3');
    assert.equal(doc.dataLicense, 'CC0-1.0');
    assert.equal(doc.SPDXID, 'SPDXRef-DOCUMENT');
    assert.equal(typeof doc.name, 'string');
    assert.match(doc.documentNamespace, /^[a-z][a-z0-9+.-]*:[^#\s]+$/);
    assert.match(doc.creationInfo.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(
      doc.creationInfo.comment,
      /^Berth did not inventory 1 entry of the image: usr\/lib\/node_modules\/nameless\/package\.json in layer sha256:[0-9a-f]{12}: /,
    );
    assert.ok(doc.creationInfo.creators.length > 0 && doc.creationInfo.creators.every((c: string) => /^(Tool|Organization|Person): /.test(c)));
    const ids = new Set<string>();
    for (const p of doc.packages) {
      assert.match(p.SPDXID, /^SPDXRef-[A-Za-z0-9.-]+$/);
      assert.ok(!ids.has(p.SPDXID), `unique SPDXID ${p.SPDXID}`);
      ids.add(p.SPDXID);
      assert.equal(typeof p.name, 'string');
      assert.equal(typeof p.versionInfo, 'string');
      assert.equal(p.downloadLocation, 'NOASSERTION');
    }
    const docPurls = doc.packages.flatMap((p: { externalRefs?: { referenceType: string; referenceLocator: string }[] }) =>
      (p.externalRefs ?? []).filter((r) => r.referenceType === 'purl').map((r) => r.referenceLocator),
    );
    assert.deepEqual(docPurls.sort(), purls(sbom).sort());
    const describes = doc.relationships.filter((r: { relationshipType: string }) => r.relationshipType === 'DESCRIBES');
    assert.equal(describes.length, 1);
    assert.equal(describes[0].spdxElementId, 'SPDXRef-DOCUMENT');
    assert.ok(ids.has(describes[0].relatedSpdxElement));
  });

  it('answers an index with the union of its platforms', async () => {
    const layout = tmp('multi');
    const index = await writeMultiArchImage(layout, '1', [
      {
        architecture: 'amd64',
        fileLayers: alpineLayers([
          { name: 'musl', version: '1.2.5-r0' },
          { name: 'amd64-only', version: '1-r0' },
        ]),
      },
      {
        architecture: 'arm64',
        fileLayers: alpineLayers(
          [
            { name: 'musl', version: '1.2.5-r0' },
            { name: 'arm64-only', version: '2-r0' },
          ],
          'aarch64',
        ),
      },
    ]);
    await push(layout, '1', 'scan/multi', true);
    const repo = await repoUid('scan/multi');
    for (const image of index.images) await waitForSbom(berth.url, owner, repo, image.manifest.digest);
    const sbom = await waitForSbom(berth.url, owner, repo, index.index.digest);
    const names = packagesOf(sbom).map((p) => p.name);
    assert.ok(names.includes('amd64-only') && names.includes('arm64-only'), names.join(','));
    assert.ok(names.filter((n) => n === 'musl').length >= 1);
  });

  it('adds the packages of an SPDX SBOM attached later as a referrer to its subject', async () => {
    const before = await waitForSbom(berth.url, owner, alpine.repo, alpine.digest);
    const client = await RepoClient.open(berth, 'scan/alpine');
    const spdx = Buffer.from(spdxWith([{ name: 'left-pad', version: '1.3.0', purl: 'pkg:npm/left-pad@1.3.0' }]));
    const layer = await client.pushBlob(spdx);
    const empty = await client.pushBlob(Buffer.from('{}'));
    const subjectSize = (
      await client.send('HEAD', `/v2/${client.name}/manifests/${alpine.digest}`, undefined, { accept: 'application/vnd.oci.image.manifest.v1+json' })
    ).headers.get('content-length');
    referrer = await client.putManifest(undefined, {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      artifactType: 'application/spdx+json',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: empty, size: 2 },
      layers: [{ mediaType: 'application/spdx+json', digest: layer, size: spdx.length }],
      subject: { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: alpine.digest, size: Number(subjectSize) },
    });
    const after = await waitForSbom(berth.url, owner, alpine.repo, alpine.digest, (r) => purls(r).includes('pkg:npm/left-pad@1.3.0'));
    for (const p of purls(before)) assert.ok(purls(after).includes(p), `still lists ${p}`);
  });

  it('prints the SBOM with berth images sbom, by tag and by digest, as a table, JSON and SPDX', async () => {
    const env = cliEnv(tmp('cli'));
    const run = async (...args: string[]) => {
      const r = await berthCli(['images', 'sbom', ...args, '--credentials', berth.credentialsFile, '--api', berth.url], { env });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const table = await run(`${berth.orgName}/scan/alpine:3.19`);
    assert.match(table, /^NAME\s+VERSION\s+LICENSE\s+PURL\n/);
    assert.match(table, /\nbusybox\s+1\.36\.1-r15\s+GPL-2\.0-only\s+pkg:apk\/alpine\/busybox@1\.36\.1-r15/);
    const json = JSON.parse(await run(`${berth.orgName}/scan/alpine@${alpine.digest}`, '-o', 'json'));
    assert.ok(json.packages.some((p: Pkg) => p.name === 'musl'));
    const spdx = JSON.parse(await run(`${berth.orgName}/scan/alpine:3.19`, '-o', 'spdx'));
    assert.equal(spdx.spdxVersion, 'SPDX-2.3');
    assert.ok(spdx.packages.some((p: { name: string }) => p.name === 'ssl_client'));
    const missing = await berthCli(['images', 'sbom', `${berth.orgName}/scan/alpine:nope`, '--credentials', berth.credentialsFile, '--api', berth.url], {
      env,
    });
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no tag named "nope"/);
  });

  it('answers NOT_FOUND for a digest the repo does not hold, INVALID_ARGUMENT for a malformed one, FAILED_PRECONDITION for a referrer', async () => {
    const missing = await rest(berth.url, 'GET', sbomPath(alpine.repo, `sha256:${'0'.repeat(64)}`), { token: owner });
    assert.equal(missing.status, 404, missing.text);
    const bad = await rest(berth.url, 'GET', sbomPath(alpine.repo, 'sha256:nothex'), { token: owner });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.code, 3, bad.text); // INVALID_ARGUMENT
    // A referrer is not an image Berth inventories: a lasting answer, not "retry".
    const notImage = await rest(berth.url, 'GET', sbomPath(alpine.repo, referrer), { token: owner });
    assert.equal(notImage.status, 400, notImage.text);
    assert.equal(notImage.json.code, 9, notImage.text); // FAILED_PRECONDITION
    assert.match(notImage.json.message, /not a container image/);
  });

  it('shows no inventory without a token, to a caller bound only in a subgroup, or to another organization', async () => {
    const anonymous = await rest(berth.url, 'GET', sbomPath(alpine.repo, alpine.digest));
    assert.equal(anonymous.status, 401, anonymous.text);

    const sub = await rest(berth.url, 'POST', `/iam/v2/groups/${berth.orgUid}`, { token: owner, body: { name: 'scan-sub' } });
    assert.equal(sub.status, 200, sub.text);
    const inSub = await identityWithRole(berth.url, owner, berth.orgUid, 'viewer', sub.json.uid);
    for (const path of [sbomPath(alpine.repo, alpine.digest), rawSbomPath(alpine.repo, alpine.digest)]) {
      const r = await rest(berth.url, 'GET', path, { token: inSub.token });
      assert.equal(r.status, 403, r.text);
      assert.ok(!r.text.includes('musl'));
    }
    // Permission before existence: a digest the repo lacks gets the same answer.
    const unknown = await rest(berth.url, 'GET', sbomPath(alpine.repo, `sha256:${'1'.repeat(64)}`), { token: inSub.token });
    assert.equal(unknown.status, 403, unknown.text);

    const other = await rest(berth.url, 'POST', '/iam/v2/groups', { token: owner, body: { name: `other-${Date.now()}.example` } });
    assert.equal(other.status, 200, other.text);
    const otherOwner = await identityWithRole(berth.url, owner, other.json.uid, 'owner', other.json.uid);
    const r = await rest(berth.url, 'GET', sbomPath(alpine.repo, alpine.digest), { token: otherOwner.token });
    assert.equal(r.status, 403, r.text);
    assert.ok(!r.text.includes('musl'));
  });
});
