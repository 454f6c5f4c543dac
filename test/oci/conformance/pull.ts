// Port of conformance/01_pull_test.go (distribution-spec v1.1.1), spec for spec.
import assert from 'node:assert/strict';
import { ERROR_CODES, INVALID_MANIFEST_CONTENT, NONEXISTENT_MANIFEST, PULL, TEST_TAG_NAME } from './setup.js';
import { expectNotEmpty, expectStatus, expectStatusIn, runOnlyIf, runOnlyIfNot, type SpecTree } from './spec-tree.js';
import type { Suite } from './suite.js';

export function testPull(root: SpecTree, s: Suite): void {
  root.context('Pull', (g) => {
    const { configs, manifests, layer, dummyDigest } = s.data;
    let tag = '';

    /** POST an upload, then PUT the blob to the session's Location with ?digest. */
    const populateBlob = async (blob: { content: Buffer; contentLength: string; digest: string }) => {
      const client = s.client;
      let resp = await client.do(client.newRequest('POST', '/v2/<name>/blobs/uploads/'));
      const req = client
        .newRequest('PUT', resp.relativeLocation())
        .setQueryParam('digest', blob.digest)
        .setHeader('Content-Type', 'application/octet-stream')
        .setHeader('Content-Length', blob.contentLength)
        .setBody(blob.content);
      resp = await client.do(req);
      expectStatusIn(resp, ['2xx']);
    };

    g.context('Setup', (g) => {
      g.specify('Populate registry with test blob', async () => {
        s.skipIfDisabled(PULL);
        runOnlyIf(s.runPullSetup);
        await populateBlob(configs[0]);
      });

      g.specify('Populate registry with test blob', async () => {
        s.skipIfDisabled(PULL);
        runOnlyIf(s.runPullSetup);
        await populateBlob(configs[1]);
      });

      g.specify('Populate registry with test layer', async () => {
        s.skipIfDisabled(PULL);
        runOnlyIf(s.runPullSetup);
        await populateBlob(layer);
      });

      g.specify('Populate registry with test manifest', async () => {
        s.skipIfDisabled(PULL);
        runOnlyIf(s.runPullSetup);
        tag = TEST_TAG_NAME;
        const req = s.client
          .newRequest('PUT', '/v2/<name>/manifests/<reference>', { reference: tag })
          .setHeader('Content-Type', 'application/vnd.oci.image.manifest.v1+json')
          .setBody(manifests[0].content);
        expectStatusIn(await s.client.do(req), ['2xx']);
      });

      g.specify('Populate registry with test manifest', async () => {
        s.skipIfDisabled(PULL);
        runOnlyIf(s.runPullSetup);
        const req = s.client
          .newRequest('PUT', '/v2/<name>/manifests/<reference>', { reference: manifests[1].digest })
          .setHeader('Content-Type', 'application/vnd.oci.image.manifest.v1+json')
          .setBody(manifests[1].content);
        expectStatusIn(await s.client.do(req), ['2xx']);
      });

      g.specify('Get tag name from environment', async () => {
        s.skipIfDisabled(PULL);
        runOnlyIfNot(s.runPullSetup);
        if (s.shape.tagName) tag = s.shape.tagName;
      });
    });

    g.context('Pull blobs', (g) => {
      g.specify('HEAD request to nonexistent blob should result in 404 response', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(s.client.newRequest('HEAD', '/v2/<name>/blobs/<digest>', { digest: dummyDigest }));
        expectStatus(resp, 404);
      });

      g.specify('HEAD request to existing blob should yield 200', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(s.client.newRequest('HEAD', '/v2/<name>/blobs/<digest>', { digest: configs[0].digest }));
        expectStatus(resp, 200);
        const h = resp.header('Docker-Content-Digest');
        if (h !== '') assert.equal(h, configs[0].digest, resp.describe());
      });

      g.specify('GET nonexistent blob should result in 404 response', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/blobs/<digest>', { digest: dummyDigest }));
        expectStatus(resp, 404);
      });

      g.specify('GET request to existing blob URL should yield 200', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/blobs/<digest>', { digest: configs[0].digest }));
        expectStatus(resp, 200);
      });
    });

    g.context('Pull manifests', (g) => {
      const manifestRequest = (method: 'GET' | 'HEAD', opts: { digest?: string; reference?: string }) =>
        s.client
          .newRequest(method, opts.digest ? '/v2/<name>/manifests/<digest>' : '/v2/<name>/manifests/<reference>', opts)
          .setHeader('Accept', 'application/vnd.oci.image.manifest.v1+json');

      g.specify('HEAD request to nonexistent manifest should return 404', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(s.client.newRequest('HEAD', '/v2/<name>/manifests/<reference>', { reference: NONEXISTENT_MANIFEST }));
        expectStatus(resp, 404);
      });

      g.specify('HEAD request to manifest[0] path (digest) should yield 200 response', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(manifestRequest('HEAD', { digest: manifests[0].digest }));
        expectStatus(resp, 200);
        const h = resp.header('Docker-Content-Digest');
        if (h !== '') assert.equal(h, manifests[0].digest, resp.describe());
      });

      g.specify('HEAD request to manifest[1] path (digest) should yield 200 response', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(manifestRequest('HEAD', { digest: manifests[1].digest }));
        expectStatus(resp, 200);
        const h = resp.header('Docker-Content-Digest');
        if (h !== '') assert.equal(h, manifests[1].digest, resp.describe());
      });

      g.specify('HEAD request to manifest path (tag) should yield 200 response', async () => {
        s.skipIfDisabled(PULL);
        expectNotEmpty(tag, 'tag');
        const resp = await s.client.do(manifestRequest('HEAD', { reference: tag }));
        expectStatus(resp, 200);
        const h = resp.header('Docker-Content-Digest');
        if (h !== '') assert.equal(h, manifests[0].digest, resp.describe());
      });

      g.specify('GET nonexistent manifest should return 404', async () => {
        s.skipIfDisabled(PULL);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/manifests/<reference>', { reference: NONEXISTENT_MANIFEST }));
        expectStatus(resp, 404);
      });

      g.specify('GET request to manifest[0] path (digest) should yield 200 response', async () => {
        s.skipIfDisabled(PULL);
        expectStatus(await s.client.do(manifestRequest('GET', { digest: manifests[0].digest })), 200);
      });

      g.specify('GET request to manifest[1] path (digest) should yield 200 response', async () => {
        s.skipIfDisabled(PULL);
        expectStatus(await s.client.do(manifestRequest('GET', { digest: manifests[1].digest })), 200);
      });

      g.specify('GET request to manifest path (tag) should yield 200 response', async () => {
        s.skipIfDisabled(PULL);
        expectNotEmpty(tag, 'tag');
        expectStatus(await s.client.do(manifestRequest('GET', { reference: tag })), 200);
      });
    });

    g.context('Error codes', (g) => {
      g.specify('400 response body should contain OCI-conforming JSON message', async () => {
        s.skipIfDisabled(PULL);
        // The Go spec sets a body on this GET; resty does not send bodies on GET, so neither does the port.
        const req = s.client
          .newRequest('GET', '/v2/<name>/manifests/<reference>', { reference: 'sha256:totallywrong' })
          .setHeader('Content-Type', 'application/vnd.oci.image.manifest.v1+json')
          .setBody(INVALID_MANIFEST_CONTENT);
        const resp = await s.client.do(req);
        expectStatusIn(resp, [400, 404]);
        if (resp.statusCode === 400) {
          const errors = resp.errors();
          assert.ok(errors.length > 0, resp.describe());
          assert.ok(ERROR_CODES.includes(errors[0].code), `unknown error code ${errors[0].code}: ${resp.describe()}`);
        }
      });
    });

    g.context('Teardown', (g) => {
      const deleteManifest = (i: 0 | 1) =>
        g.specify(`Delete manifest[${i}] created in setup`, async () => {
          s.skipIfDisabled(PULL);
          runOnlyIf(s.runPullSetup);
          const resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/manifests/<digest>', { digest: manifests[i].digest }));
          expectStatusIn(resp, ['2xx', 405]);
        });
      const deleteBlob = (name: string, digest: string) =>
        g.specify(name, async () => {
          s.skipIfDisabled(PULL);
          runOnlyIf(s.runPullSetup);
          const resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/blobs/<digest>', { digest }));
          expectStatusIn(resp, ['2xx', 404, 405]);
        });

      if (s.deleteManifestBeforeBlobs) {
        deleteManifest(0);
        deleteManifest(1);
      }
      deleteBlob('Delete config[0] blob created in setup', configs[0].digest);
      deleteBlob('Delete config[1] blob created in setup', configs[1].digest);
      deleteBlob('Delete layer blob created in setup', layer.digest);
      if (!s.deleteManifestBeforeBlobs) {
        deleteManifest(0);
        deleteManifest(1);
      }
    });
  });
}
