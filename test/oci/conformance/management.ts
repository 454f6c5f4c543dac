// Port of conformance/04_management_test.go (distribution-spec v1.1.1), spec for spec.
import assert from 'node:assert/strict';
import { unmarshalTagList } from './go-unmarshal.js';
import { CONTENT_MANAGEMENT, TEST_TAG_NAME } from './setup.js';
import { expectStatus, expectStatusIn, decodeBody, runOnlyIf, type SpecTree } from './spec-tree.js';
import type { Suite } from './suite.js';

export function testContentManagement(root: SpecTree, s: Suite): void {
  root.context('Content Management', (g) => {
    const { configs, manifests, layer } = s.data;
    const defaultTagName = TEST_TAG_NAME;
    let tagToDelete = '';
    let numTags = 0;
    let blobDeleteAllowed = true;

    g.context('Setup', (g) => {
      const pushBlob = async (blob: { content: Buffer; contentLength: string; digest: string }) => {
        let resp = await s.client.do(s.client.newRequest('POST', '/v2/<name>/blobs/uploads/'));
        const req = s.client
          .newRequest('PUT', resp.relativeLocation())
          .setHeader('Content-Length', blob.contentLength)
          .setHeader('Content-Type', 'application/octet-stream')
          .setQueryParam('digest', blob.digest)
          .setBody(blob.content);
        resp = await s.client.do(req);
        expectStatusIn(resp, ['2xx']);
      };

      g.specify('Populate registry with test config blob', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        runOnlyIf(s.runContentManagementSetup);
        await pushBlob(configs[3]);
      });

      g.specify('Populate registry with test layer', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        runOnlyIf(s.runContentManagementSetup);
        await pushBlob(layer);
      });

      g.specify('Populate registry with test tag', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        runOnlyIf(s.runContentManagementSetup);
        tagToDelete = defaultTagName;
        const req = s.client
          .newRequest('PUT', '/v2/<name>/manifests/<reference>', { reference: tagToDelete })
          .setHeader('Content-Type', 'application/vnd.oci.image.manifest.v1+json')
          .setBody(manifests[3].content);
        expectStatusIn(await s.client.do(req), ['2xx']);
      });

      g.specify('Check how many tags there are before anything gets deleted', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        runOnlyIf(s.runContentManagementSetup);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/tags/list'));
        expectStatus(resp, 200);
        numTags = decodeBody(resp, unmarshalTagList).length;
      });
    });

    g.context('Manifest delete', (g) => {
      g.specify('DELETE request to manifest tag should return 202, unless tag deletion is disallowed (400/405)', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        const resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/manifests/<reference>', { reference: tagToDelete }));
        expectStatusIn(resp, [400, 202, 405]);
        if (resp.statusCode === 400) {
          const errors = resp.errors();
          assert.ok(errors.length > 0, resp.describe());
          assert.equal(errors[0].code, 'UNSUPPORTED', resp.describe());
        }
      });

      g.specify('DELETE request to manifest (digest) should yield 202 response unless already deleted', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        const resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/manifests/<digest>', { digest: manifests[3].digest }));
        // In the case that the previous request was accepted, this may or may not fail (which is ok)
        expectStatusIn(resp, [202, 404]);
      });

      g.specify('GET request to deleted manifest URL should yield 404 response, unless delete is disallowed', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/manifests/<digest>', { digest: manifests[3].digest }));
        expectStatusIn(resp, [404, 200]);
      });

      g.specify('GET request to tags list should reflect manifest deletion', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/tags/list'));
        expectStatusIn(resp, [404, 200]);
        const expectTags = numTags - 1;
        if (resp.statusCode === 200) {
          assert.equal(decodeBody(resp, unmarshalTagList).length, expectTags, resp.describe());
        }
        if (resp.statusCode === 404) assert.equal(expectTags, 0, resp.describe());
      });
    });

    g.context('Blob delete', (g) => {
      g.specify('DELETE request to blob URL should yield 202 response', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        runOnlyIf(s.runContentManagementSetup);
        // config blob
        let resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/blobs/<digest>', { digest: configs[3].digest }));
        expectStatusIn(resp, [202, 404, 405]);
        // layer blob
        resp = await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/blobs/<digest>', { digest: layer.digest }));
        expectStatusIn(resp, [202, 404, 405]);
        if (resp.statusCode === 405) blobDeleteAllowed = false;
      });

      g.specify('GET request to deleted blob URL should yield 404 response', async () => {
        s.skipIfDisabled(CONTENT_MANAGEMENT);
        runOnlyIf(s.runContentManagementSetup);
        runOnlyIf(blobDeleteAllowed);
        expectStatus(await s.client.do(s.client.newRequest('GET', '/v2/<name>/blobs/<digest>', { digest: configs[3].digest })), 404);
      });
    });

    g.context('Teardown', () => {
      // TODO (in the Go suite): delete blob+tag? No teardown required at this time for content management tests
    });
  });
}
