// Port of conformance/02_push_test.go (distribution-spec v1.1.1), spec for spec.
import assert from 'node:assert/strict';
import type { Response } from './client.js';
import { chunkedBlob, EMPTY_LAYER_TEST_TAG, NONEXISTENT_MANIFEST, PUSH } from './setup.js';
import { expectHeader, expectNotEmpty, expectStatus, expectStatusIn, runOnlyIf, runOnlyIfNot, type SpecTree, warn } from './spec-tree.js';
import type { Suite } from './suite.js';

export function testPush(root: SpecTree, s: Suite): void {
  root.context('Push', (g) => {
    const { configs, manifests, layer, testBlobA, emptyLayerManifest, dummyDigest } = s.data;
    let lastResponse: Response | undefined;
    let prevResponse: Response | undefined;
    let emptyLayerManifestRef = '';

    g.context('Setup', () => {
      // No setup required at this time for push tests
    });

    g.context('Blob Upload Streamed', (g) => {
      g.specify('PATCH request with blob in body should yield 202 response', async () => {
        s.skipIfDisabled(PUSH);
        let resp = await s.client.do(s.client.newRequest('POST', '/v2/<name>/blobs/uploads/'));
        expectNotEmpty(resp.header('Location'), 'Location', resp);
        const req = s.client.newRequest('PATCH', resp.relativeLocation()).setHeader('Content-Type', 'application/octet-stream').setBody(testBlobA.content);
        resp = await s.client.do(req);
        expectStatus(resp, 202);
        lastResponse = resp;
      });

      g.specify('PUT request to session URL with digest should yield 201 response', async () => {
        s.skipIfDisabled(PUSH);
        assert.ok(lastResponse, 'no response from the previous spec');
        // No body: the Content-Length header the Go spec sets is replaced by net/http with the real length, 0.
        const req = s.client
          .newRequest('PUT', lastResponse.relativeLocation())
          .setQueryParam('digest', testBlobA.digest)
          .setHeader('Content-Type', 'application/octet-stream')
          .setHeader('Content-Length', testBlobA.contentLength);
        const resp = await s.client.do(req);
        expectStatus(resp, 201);
        expectNotEmpty(resp.header('Location'), 'Location', resp);
      });
    });

    g.context('Blob Upload Monolithic', (g) => {
      g.specify('GET nonexistent blob should result in 404 response', async () => {
        s.skipIfDisabled(PUSH);
        expectStatus(await s.client.do(s.client.newRequest('GET', '/v2/<name>/blobs/<digest>', { digest: dummyDigest })), 404);
      });

      g.specify('POST request with digest and blob should yield a 201 or 202', async () => {
        s.skipIfDisabled(PUSH);
        const req = s.client
          .newRequest('POST', '/v2/<name>/blobs/uploads/')
          .setHeader('Content-Length', configs[1].contentLength)
          .setHeader('Content-Type', 'application/octet-stream')
          .setQueryParam('digest', configs[1].digest)
          .setBody(configs[1].content);
        const resp = await s.client.do(req);
        expectNotEmpty(resp.header('Location'), 'Location', resp);
        expectStatusIn(resp, [201, 202]);
        lastResponse = resp;
      });

      g.specify('GET request to blob URL from prior request should yield 200 or 404 based on response code', async () => {
        s.skipIfDisabled(PUSH);
        assert.ok(lastResponse, 'no response from the previous spec');
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/blobs/<digest>', { digest: configs[1].digest }));
        expectStatus(resp, lastResponse.statusCode === 202 ? 404 : 200);
      });

      g.specify('POST request should yield a session ID', async () => {
        s.skipIfDisabled(PUSH);
        const resp = await s.client.do(s.client.newRequest('POST', '/v2/<name>/blobs/uploads/'));
        expectStatus(resp, 202);
        lastResponse = resp;
      });

      g.specify('PUT upload of a blob should yield a 201 Response', async () => {
        s.skipIfDisabled(PUSH);
        const req = s.client
          .newRequest('PUT', lastResponse!.relativeLocation())
          .setHeader('Content-Length', configs[1].contentLength)
          .setHeader('Content-Type', 'application/octet-stream')
          .setQueryParam('digest', configs[1].digest)
          .setBody(configs[1].content);
        const resp = await s.client.do(req);
        expectNotEmpty(resp.header('Location'), 'Location', resp);
        expectStatus(resp, 201);
      });

      g.specify('GET request to existing blob should yield 200 response', async () => {
        s.skipIfDisabled(PUSH);
        expectStatus(await s.client.do(s.client.newRequest('GET', '/v2/<name>/blobs/<digest>', { digest: configs[1].digest })), 200);
      });

      g.specify('PUT upload of a layer blob should yield a 201 Response', async () => {
        s.skipIfDisabled(PUSH);
        let resp = await s.client.do(s.client.newRequest('POST', '/v2/<name>/blobs/uploads/'));
        const req = s.client
          .newRequest('PUT', resp.relativeLocation())
          .setHeader('Content-Length', layer.contentLength)
          .setHeader('Content-Type', 'application/octet-stream')
          .setQueryParam('digest', layer.digest)
          .setBody(layer.content);
        resp = await s.client.do(req);
        expectNotEmpty(resp.header('Location'), 'Location', resp);
        expectStatus(resp, 201);
      });

      g.specify('GET request to existing layer should yield 200 response', async () => {
        s.skipIfDisabled(PUSH);
        expectStatus(await s.client.do(s.client.newRequest('GET', '/v2/<name>/blobs/<digest>', { digest: layer.digest })), 200);
      });
    });

    g.context('Blob Upload Chunked', (g) => {
      g.specify('Out-of-order blob upload should return 416', async () => {
        s.skipIfDisabled(PUSH);
        let resp = await s.client.do(s.client.newRequest('POST', '/v2/<name>/blobs/uploads/').setHeader('Content-Length', '0'));
        expectNotEmpty(resp.header('Location'), 'Location', resp);

        // rebuild the chunked blob if the registry's minimum chunk is above our chunk size
        const minSizeStr = resp.header('OCI-Chunk-Min-Length');
        if (minSizeStr !== '') {
          assert.match(minSizeStr, /^[0-9]+$/, `OCI-Chunk-Min-Length: ${resp.describe()}`);
          const minSize = Number(minSizeStr);
          if (minSize > s.data.chunked.chunk1.length) s.data.chunked = chunkedBlob(minSize * 2 - 2);
        }

        const b = s.data.chunked;
        const req = s.client
          .newRequest('PATCH', resp.relativeLocation())
          .setHeader('Content-Type', 'application/octet-stream')
          .setHeader('Content-Length', b.chunk2Length)
          .setHeader('Content-Range', b.chunk2Range)
          .setBody(b.chunk2);
        resp = await s.client.do(req);
        expectStatus(resp, 416);
      });

      g.specify('PATCH request with first chunk should return 202', async () => {
        s.skipIfDisabled(PUSH);
        const b = s.data.chunked;
        let resp = await s.client.do(s.client.newRequest('POST', '/v2/<name>/blobs/uploads/').setHeader('Content-Length', '0'));
        expectNotEmpty(resp.header('Location'), 'Location', resp);
        prevResponse = resp;
        const req = s.client
          .newRequest('PATCH', resp.relativeLocation())
          .setHeader('Content-Type', 'application/octet-stream')
          .setHeader('Content-Length', b.chunk1Length)
          .setHeader('Content-Range', b.chunk1Range)
          .setBody(b.chunk1);
        resp = await s.client.do(req);
        expectStatus(resp, 202);
        expectHeader(resp, 'Range', b.chunk1Range);
        lastResponse = resp;
      });

      g.specify('Retry previous blob chunk should return 416', async () => {
        s.skipIfDisabled(PUSH);
        const b = s.data.chunked;
        const req = s.client
          .newRequest('PATCH', prevResponse!.relativeLocation())
          .setHeader('Content-Type', 'application/octet-stream')
          .setHeader('Content-Length', b.chunk1Length)
          .setHeader('Content-Range', b.chunk1Range)
          .setBody(b.chunk1);
        expectStatus(await s.client.do(req), 416);
      });

      g.specify('Get on stale blob upload should return 204 with a range and location', async () => {
        s.skipIfDisabled(PUSH);
        const resp = await s.client.do(s.client.newRequest('GET', prevResponse!.relativeLocation()));
        expectStatus(resp, 204);
        expectNotEmpty(resp.header('Location'), 'Location', resp);
        expectHeader(resp, 'Range', s.data.chunked.chunk1Range);
        lastResponse = resp;
      });

      g.specify('PATCH request with second chunk should return 202', async () => {
        s.skipIfDisabled(PUSH);
        const b = s.data.chunked;
        const req = s.client
          .newRequest('PATCH', lastResponse!.relativeLocation())
          .setHeader('Content-Length', b.chunk2Length)
          .setHeader('Content-Range', b.chunk2Range)
          .setHeader('Content-Type', 'application/octet-stream')
          .setBody(b.chunk2);
        const resp = await s.client.do(req);
        expectStatus(resp, 202);
        expectNotEmpty(resp.header('Location'), 'Location', resp);
        lastResponse = resp;
      });

      g.specify('PUT request with digest should return 201', async () => {
        s.skipIfDisabled(PUSH);
        const req = s.client
          .newRequest('PUT', lastResponse!.relativeLocation())
          .setHeader('Content-Length', '0')
          .setHeader('Content-Type', 'application/octet-stream')
          .setQueryParam('digest', s.data.chunked.digest);
        const resp = await s.client.do(req);
        expectStatus(resp, 201);
        expectNotEmpty(resp.header('Location'), 'Location', resp);
      });
    });

    g.context('Cross-Repository Blob Mount', (g) => {
      g.specify('Cross-mounting of a blob without the from argument should yield session id', async () => {
        s.skipIfDisabled(PUSH);
        const req = s.client.newRequest('POST', '/v2/<name>/blobs/uploads/', { name: s.crossmountNamespace }).setQueryParam('mount', dummyDigest);
        const resp = await s.client.do(req);
        expectStatus(resp, 202);
        expectNotEmpty(resp.absoluteLocation(), 'Location', resp);
      });

      g.specify("POST request to mount another repository's blob should return 201 or 202", async () => {
        s.skipIfDisabled(PUSH);
        const req = s.client
          .newRequest('POST', '/v2/<name>/blobs/uploads/', { name: s.crossmountNamespace })
          .setQueryParam('mount', testBlobA.digest)
          .setQueryParam('from', s.client.config.defaultName);
        const resp = await s.client.do(req);
        expectStatusIn(resp, [201, 202]);
        lastResponse = resp;
      });

      g.specify('GET request to test digest within cross-mount namespace should return 200', async () => {
        s.skipIfDisabled(PUSH);
        runOnlyIf(lastResponse!.statusCode === 201);
        assert.equal(lastResponse!.relativeLocation(), `/v2/${s.crossmountNamespace}/blobs/${testBlobA.digest}`, lastResponse!.describe());
        expectStatus(await s.client.do(s.client.newRequest('GET', lastResponse!.relativeLocation())), 200);
      });

      g.specify('Cross-mounting of nonexistent blob should yield session id', async () => {
        s.skipIfDisabled(PUSH);
        runOnlyIf(lastResponse!.statusCode === 202);
        const loc = lastResponse!.relativeLocation();
        assert.ok(loc.startsWith(`/v2/${s.crossmountNamespace}/blobs/uploads/`), `Location ${loc}: ${lastResponse!.describe()}`);
      });

      g.specify('Cross-mounting without from, and automatic content discovery enabled should return a 201', async () => {
        s.skipIfDisabled(PUSH);
        runOnlyIf(s.runAutomaticCrossmountTest);
        runOnlyIf(lastResponse!.statusCode === 201);
        runOnlyIf(s.automaticCrossmountEnabled);
        const req = s.client.newRequest('POST', '/v2/<name>/blobs/uploads/', { name: s.crossmountNamespace }).setQueryParam('mount', testBlobA.digest);
        expectStatus(await s.client.do(req), 201);
      });

      g.specify('Cross-mounting without from, and automatic content discovery disabled should return a 202', async () => {
        s.skipIfDisabled(PUSH);
        runOnlyIf(s.runAutomaticCrossmountTest);
        runOnlyIf(lastResponse!.statusCode === 201);
        runOnlyIfNot(s.automaticCrossmountEnabled);
        const req = s.client.newRequest('POST', '/v2/<name>/blobs/uploads/', { name: s.crossmountNamespace }).setQueryParam('mount', testBlobA.digest);
        expectStatus(await s.client.do(req), 202);
      });
    });

    g.context('Manifest Upload', (g) => {
      g.specify('GET nonexistent manifest should return 404', async () => {
        s.skipIfDisabled(PUSH);
        expectStatus(await s.client.do(s.client.newRequest('GET', '/v2/<name>/manifests/<reference>', { reference: NONEXISTENT_MANIFEST })), 404);
      });

      g.specify('PUT should accept a manifest upload', async () => {
        s.skipIfDisabled(PUSH);
        for (let i = 0; i < 4; i++) {
          const req = s.client
            .newRequest('PUT', '/v2/<name>/manifests/<reference>', { reference: `test${i}` })
            .setHeader('Content-Type', 'application/vnd.oci.image.manifest.v1+json')
            .setBody(manifests[1].content);
          const resp = await s.client.do(req);
          expectNotEmpty(resp.header('Location'), 'Location', resp);
          expectStatus(resp, 201);
        }
      });

      g.specify('Registry should accept a manifest upload with no layers', async () => {
        s.skipIfDisabled(PUSH);
        const req = s.client
          .newRequest('PUT', '/v2/<name>/manifests/<reference>', { reference: EMPTY_LAYER_TEST_TAG })
          .setHeader('Content-Type', 'application/vnd.oci.image.manifest.v1+json')
          .setBody(emptyLayerManifest.content);
        const resp = await s.client.do(req);
        if (resp.statusCode === 201) {
          emptyLayerManifestRef = resp.header('Location');
          expectNotEmpty(emptyLayerManifestRef, 'Location', resp);
        } else {
          warn(`image manifest with no layers is not supported (${resp.describe()})`);
        }
      });

      g.specify('GET request to manifest URL (digest) should yield 200 response', async () => {
        s.skipIfDisabled(PUSH);
        const req = s.client
          .newRequest('GET', '/v2/<name>/manifests/<digest>', { digest: manifests[1].digest })
          .setHeader('Accept', 'application/vnd.oci.image.manifest.v1+json');
        expectStatus(await s.client.do(req), 200);
      });
    });

    g.context('Teardown', (g) => {
      const deleteManifests = () =>
        g.specify('Delete manifest created in tests', async () => {
          s.skipIfDisabled(PUSH);
          runOnlyIf(s.runPushSetup);
          let resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/manifests/<digest>', { digest: manifests[1].digest }));
          expectStatusIn(resp, ['2xx', 405]);
          if (emptyLayerManifestRef !== '') {
            resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/manifests/<reference>', { reference: emptyLayerManifest.digest }));
            expectStatusIn(resp, ['2xx', 405]);
          }
        });
      const deleteBlob = (name: string, digest: string) =>
        g.specify(name, async () => {
          s.skipIfDisabled(PUSH);
          runOnlyIf(s.runPushSetup);
          expectStatusIn(await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/blobs/<digest>', { digest })), ['2xx', 404, 405]);
        });

      if (s.deleteManifestBeforeBlobs) deleteManifests();
      deleteBlob('Delete config blob created in tests', configs[1].digest);
      deleteBlob('Delete layer blob created in setup', layer.digest);
      if (!s.deleteManifestBeforeBlobs) deleteManifests();
    });
  });
}
