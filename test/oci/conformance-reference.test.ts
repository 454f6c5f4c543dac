// Holds the conformance port itself to account: runs every workflow against
// Debian's docker-registry (distribution 2.8), which passes the parts of the Go
// suite that predate distribution-spec 1.1. The specs it fails for a known
// reason are listed in DISTRIBUTION_2_8_TODO and run as todo; the last test
// checks that each of them really failed, so the list cannot go stale and every
// other spec of the port is shown to pass against a real registry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dockerRegistryInstalled, type ReferenceRegistry, startDistribution } from '../harness/distribution-registry.js';
import { opensslInstalled, startTokenServer, type TokenServer } from '../harness/distribution-token-server.js';
import { RegistryClient } from './conformance/client.js';
import { type ConformanceRun, runConformanceLazily } from './conformance/index.js';
import { createTestData, type TestBlob } from './conformance/setup.js';

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

const REFERRERS = 'distribution 2.8: no referrers API (GET /v2/<name>/referrers/<digest> is 404)';
const STALE_UPLOAD =
  'distribution 2.8: an upload URL whose _state offset is behind the upload is refused with 404 BLOB_UPLOAD_INVALID (and the upload cancelled)';
const TAG_PAGES = 'distribution 2.8: tags/list ignores n and last (every tag on one page)';

/** Spec path → why distribution 2.8 fails it (each checked against its source at v2.8.2). */
const DISTRIBUTION_2_8_TODO: Record<string, string> = {
  'Pull > Error codes > 400 response body should contain OCI-conforming JSON message':
    'distribution 2.8: GET /manifests/sha256:totallywrong is 500 UNKNOWN (looked up as a tag in storage), not 400 or 404',
  'Push > Blob Upload Chunked > Out-of-order blob upload should return 416': 'distribution 2.8: PATCH ignores Content-Range (202, not 416)',
  'Push > Blob Upload Chunked > Retry previous blob chunk should return 416': STALE_UPLOAD,
  'Push > Blob Upload Chunked > Get on stale blob upload should return 204 with a range and location': STALE_UPLOAD,
  'Content Discovery > Setup > References setup': 'distribution 2.8: no OCI-Subject header on a manifest PUT with a subject',
  'Content Discovery > Test content discovery endpoints (listing tags) > GET number of tags should be limitable by `n` query parameter': TAG_PAGES,
  'Content Discovery > Test content discovery endpoints (listing tags) > GET start of tag is set by `last` query parameter': TAG_PAGES,
  'Content Discovery > Test content discovery endpoints (listing references) > GET request to nonexistent blob should result in empty 200 response': REFERRERS,
  'Content Discovery > Test content discovery endpoints (listing references) > GET request to existing blob should yield 200': REFERRERS,
  'Content Discovery > Test content discovery endpoints (listing references) > GET request to existing blob with filter should yield 200': REFERRERS,
  'Content Discovery > Test content discovery endpoints (listing references) > GET request to missing manifest should yield 200': REFERRERS,
  'Content Management > Manifest delete > DELETE request to manifest tag should return 202, unless tag deletion is disallowed (400/405)':
    'distribution 2.8: DELETE by tag is 400 DIGEST_INVALID (tags cannot be deleted), not 202, 405 or 400 UNSUPPORTED',
};

const installed = dockerRegistryInstalled();
const ALL = { pull: true, push: true, discovery: true, management: true };

/** The last test of a run: each todo spec failed, nothing else did, and the run was not cut short. */
function checkOutcomes(run: ConformanceRun): void {
  it('every spec on the todo list failed, and no other spec did', () => {
    const outcomes = run.outcomes;
    for (const spec of Object.keys(DISTRIBUTION_2_8_TODO)) assert.equal(outcomes.get(spec), 'failed', `todo spec did not fail: ${spec}`);
    const unexpected = [...outcomes].filter(([spec, o]) => o === 'failed' && !(spec in DISTRIBUTION_2_8_TODO)).map(([spec]) => spec);
    assert.deepEqual(unexpected, []);
    assert.ok(outcomes.size > 50, `only ${outcomes.size} specs ran`);
  });
}

describe('OCI conformance port against distribution 2.8', {
  skip: installed ? false : 'docker-registry is not installed (apt-get install docker-registry)',
}, () => {
  describe('anonymous', () => {
    let registry: ReferenceRegistry | undefined;
    before(async () => {
      registry = await startDistribution();
    });
    after(async () => {
      await registry?.stop();
    });

    const run = runConformanceLazily({ workflows: ALL, automaticCrossmount: false, todo: DISTRIBUTION_2_8_TODO }, () => ({
      registry: registry!.address,
      namespace: 'conformance/test',
      crossmountNamespace: 'conformance/other',
    }));
    checkOutcomes(run);

    it("stores the port's referrers artifacts and index byte for byte", async () => {
      const client = new RegistryClient({ address: `http://${registry!.address}`, defaultName: 'conformance/data' });
      try {
        const d = createTestData();
        for (const blob of [
          d.configs[4],
          d.layer,
          d.refBlobA,
          d.refBlobB,
          { content: d.emptyJSONBlob, contentLength: '2', digest: d.emptyJSONDescriptor.digest },
        ]) {
          const start = await client.do(client.newRequest('POST', '/v2/<name>/blobs/uploads/'));
          const put = client
            .newRequest('PUT', start.relativeLocation())
            .setQueryParam('digest', blob.digest)
            .setHeader('Content-Type', 'application/octet-stream');
          assert.equal((await client.do(put.setBody(blob.content))).statusCode, 201);
        }
        const manifests: Array<[TestBlob, string]> = [
          [d.manifests[4], OCI_MANIFEST],
          [d.refsManifestAConfigArtifact, OCI_MANIFEST],
          [d.refsManifestALayerArtifact, OCI_MANIFEST],
          [d.refsManifestBConfigArtifact, OCI_MANIFEST],
          [d.refsManifestBLayerArtifact, OCI_MANIFEST],
          [d.refsManifestCLayerArtifact, OCI_MANIFEST],
          [d.refsIndexArtifact, 'application/vnd.oci.image.index.v1+json'],
        ];
        for (const [m, mediaType] of manifests) {
          const put = client
            .newRequest('PUT', '/v2/<name>/manifests/<reference>', { reference: m.digest })
            .setHeader('Content-Type', mediaType)
            .setBody(m.content);
          const pushed = await client.do(put);
          assert.equal(pushed.statusCode, 201, pushed.describe());
          assert.equal(pushed.header('Docker-Content-Digest'), m.digest);
          const got = await client.do(client.newRequest('GET', '/v2/<name>/manifests/<digest>', { digest: m.digest }).setHeader('Accept', mediaType));
          assert.equal(got.statusCode, 200, got.describe());
          assert.ok(got.body.equals(m.content), 'served bytes differ from pushed bytes');
        }
      } finally {
        client.close();
      }
    });
  });

  describe('through the token flow', { skip: opensslInstalled() ? false : 'openssl is not installed (needed for the token certificate)' }, () => {
    let tokens: TokenServer | undefined;
    let registry: ReferenceRegistry | undefined;
    before(async () => {
      tokens = await startTokenServer('conformance', 's3cret');
      registry = await startDistribution({ authYaml: tokens.authYaml });
    });
    after(async () => {
      await registry?.stop();
      await tokens?.close();
    });

    const run = runConformanceLazily({ workflows: ALL, automaticCrossmount: false, todo: DISTRIBUTION_2_8_TODO }, () => ({
      registry: registry!.address,
      namespace: 'conformance/test',
      crossmountNamespace: 'conformance/other',
      username: 'conformance',
      password: 's3cret',
    }));
    checkOutcomes(run);

    it('asked the realm for the scopes of the challenges, the cross-mount one naming both repositories', () => {
      // distribution lists scopes and actions in map order: compare them sorted
      const normalized = tokens!.scopes.map((scope) =>
        scope
          .split(' ')
          .map((one) => one.replace(/[^:]+$/, (actions) => actions.split(',').sort().join(',')))
          .sort()
          .join(' '),
      );
      assert.equal(tokens!.refused, 0);
      assert.ok(normalized.includes('repository:conformance/test:pull,push'), JSON.stringify(tokens!.scopes));
      assert.ok(normalized.includes('repository:conformance/other:pull,push repository:conformance/test:pull'), JSON.stringify(tokens!.scopes));
    });

    it('without credentials the token request is refused and the 401 stands', async () => {
      const client = new RegistryClient({ address: `http://${registry!.address}`, defaultName: 'conformance/test' });
      const wrong = new RegistryClient({ address: `http://${registry!.address}`, defaultName: 'conformance/test', username: 'conformance', password: 'wrong' });
      try {
        const refusedBefore = tokens!.refused;
        await assert.rejects(client.do(client.newRequest('GET', '/v2/<name>/tags/list')), /token endpoint did not answer JSON|no token/);
        await assert.rejects(wrong.do(wrong.newRequest('GET', '/v2/<name>/tags/list')), /token endpoint/);
        assert.equal(tokens!.refused, refusedBefore + 2);
      } finally {
        client.close();
        wrong.close();
      }
    });
  });
});
