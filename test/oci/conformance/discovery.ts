// Port of conformance/03_discovery_test.go (distribution-spec v1.1.1), spec for spec.
import assert from 'node:assert/strict';
import type { Response } from './client.js';
import { unmarshalIndex, unmarshalTagList } from './go-unmarshal.js';
import type { Index } from './image.js';
import { ARTIFACT_TYPE_FILTER, CONTENT_DISCOVERY, TEST_ANNOTATION_KEY, TEST_TAG_NAME, type TestBlob } from './setup.js';
import { expectHeader, expectStatus, expectStatusIn, decodeBody, runOnlyIf, runOnlyIfNot, type SpecTree, warn } from './spec-tree.js';
import type { Suite } from './suite.js';

/** setup.go getTagList: the `tags` of a tag-list body, [] when it does not parse. */
function getTagList(resp: Response): string[] {
  try {
    return unmarshalTagList(resp.text());
  } catch {
    return [];
  }
}

export function testContentDiscovery(root: SpecTree, s: Suite): void {
  root.context('Content Discovery', (g) => {
    const d = s.data;
    const { configs, manifests, layer } = d;
    let numTags = 4;
    let tagList: string[] = [];

    const pushBlob = async (blob: TestBlob) => {
      let resp = await s.client.do(s.client.newRequest('POST', '/v2/<name>/blobs/uploads/'));
      const req = s.client
        .newRequest('PUT', resp.relativeLocation())
        .setQueryParam('digest', blob.digest)
        .setHeader('Content-Type', 'application/octet-stream')
        .setHeader('Content-Length', blob.contentLength)
        .setBody(blob.content);
      resp = await s.client.do(req);
      expectStatusIn(resp, ['2xx']);
    };
    const pushManifest = async (reference: string, content: Buffer, mediaType = 'application/vnd.oci.image.manifest.v1+json') => {
      const req = s.client.newRequest('PUT', '/v2/<name>/manifests/<reference>', { reference }).setHeader('Content-Type', mediaType).setBody(content);
      const resp = await s.client.do(req);
      expectStatusIn(resp, ['2xx']);
      return resp;
    };

    g.context('Setup', (g) => {
      g.specify('Populate registry with test blob', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        runOnlyIf(s.runContentDiscoverySetup);
        await pushBlob(configs[2]);
      });

      g.specify('Populate registry with test layer', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        runOnlyIf(s.runContentDiscoverySetup);
        await pushBlob(layer);
      });

      g.specify('Populate registry with test tags', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        runOnlyIf(s.runContentDiscoverySetup);
        for (let i = 0; i < numTags; i++) {
          const tag = `test${i}`;
          tagList.push(tag);
          await pushManifest(tag, manifests[2].content);
        }
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/tags/list'));
        tagList = getTagList(resp);
      });

      g.specify('Populate registry with test tags (no push)', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        runOnlyIfNot(s.runContentDiscoverySetup);
        tagList = [...(s.shape.tagList ?? [])];
      });

      g.specify('References setup', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        runOnlyIf(s.runContentDiscoverySetup);

        // Populate registry with empty JSON blob; validate the expected empty JSON blob digest
        assert.equal(d.emptyJSONDescriptor.digest, 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
        await pushBlob({ content: d.emptyJSONBlob, contentLength: String(d.emptyJSONDescriptor.size), digest: d.emptyJSONDescriptor.digest });

        // Populate registry with reference blob before the image manifest is pushed
        await pushBlob(d.refBlobA);

        // test references manifest (config.MediaType = artifactType)
        let resp = await pushManifest(d.refsManifestAConfigArtifact.digest, d.refsManifestAConfigArtifact.content);
        expectHeader(resp, 'OCI-Subject', manifests[4].digest);
        // test references manifest (ArtifactType, config.MediaType = emptyJSON)
        resp = await pushManifest(d.refsManifestALayerArtifact.digest, d.refsManifestALayerArtifact.content);
        expectHeader(resp, 'OCI-Subject', manifests[4].digest);
        // test index manifest
        resp = await pushManifest(d.refsIndexArtifact.digest, d.refsIndexArtifact.content, 'application/vnd.oci.image.index.v1+json');
        expectHeader(resp, 'OCI-Subject', manifests[4].digest);

        // the subject: config, layer, then the image manifest itself
        await pushBlob(configs[4]);
        await pushBlob(layer);
        await pushManifest(TEST_TAG_NAME, manifests[4].content);

        // Populate registry with reference blob after the image manifest is pushed
        await pushBlob(d.refBlobB);
        resp = await pushManifest(d.refsManifestBConfigArtifact.digest, d.refsManifestBConfigArtifact.content);
        expectHeader(resp, 'OCI-Subject', manifests[4].digest);
        resp = await pushManifest(d.refsManifestBLayerArtifact.digest, d.refsManifestBLayerArtifact.content);
        expectHeader(resp, 'OCI-Subject', manifests[4].digest);

        // test references manifest to a non-existent subject
        resp = await pushManifest(d.refsManifestCLayerArtifact.digest, d.refsManifestCLayerArtifact.content);
        expectHeader(resp, 'OCI-Subject', manifests[3].digest);
      });
    });

    g.context('Test content discovery endpoints (listing tags)', (g) => {
      g.specify('GET request to list tags should yield 200 response', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/tags/list'));
        expectStatus(resp, 200);
        tagList = getTagList(resp);
        numTags = tagList.length;
      });

      g.specify('GET number of tags should be limitable by `n` query parameter', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        const numResults = Math.trunc(numTags / 2);
        const resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/tags/list').setQueryParam('n', String(numResults)));
        expectStatus(resp, 200);
        tagList = getTagList(resp);
        assert.equal(tagList.length, numResults, resp.describe());
      });

      g.specify('GET start of tag is set by `last` query parameter', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        const numResults = Math.trunc(numTags / 2);
        let resp = await s.client.do(s.client.newRequest('GET', '/v2/<name>/tags/list').setQueryParam('n', String(numResults)));
        tagList = getTagList(resp);
        const req = s.client
          .newRequest('GET', '/v2/<name>/tags/list')
          .setQueryParam('n', String(numResults))
          .setQueryParam('last', tagList[numResults - 1]);
        resp = await s.client.do(req);
        expectStatus(resp, 200);
        // As in the Go spec, the checks below look at the first page (tagList is not re-read from this response).
        assert.ok(tagList.length <= numResults, resp.describe());
        assert.ok(tagList.includes(tagList[numResults - 1]), resp.describe());
      });
    });

    g.context('Test content discovery endpoints (listing references)', (g) => {
      const referrers = async (digest: string, artifactType?: string) => {
        const req = s.client.newRequest('GET', '/v2/<name>/referrers/<digest>', { digest });
        if (artifactType !== undefined) req.setQueryParam('artifactType', artifactType);
        const resp = await s.client.do(req);
        expectStatus(resp, 200);
        expectHeader(resp, 'Content-Type', 'application/vnd.oci.image.index.v1+json');
        return { resp, manifests: decodeBody(resp, unmarshalIndex).manifests };
      };
      const expectAnnotations = (resp: Response, list: Index['manifests']) => {
        for (const m of list) {
          assert.equal(Object.keys(m.annotations ?? {}).length, 1, resp.describe());
          assert.equal(m.annotations?.[TEST_ANNOTATION_KEY] ?? '', d.annotationValues.get(m.digest) ?? '', resp.describe());
        }
      };

      g.specify('GET request to nonexistent blob should result in empty 200 response', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        const { resp, manifests: list } = await referrers(d.dummyDigest);
        assert.equal(list.length, 0, resp.describe());
      });

      g.specify('GET request to existing blob should yield 200', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        const { resp, manifests: list } = await referrers(manifests[4].digest);
        assert.equal(list.length, 5, resp.describe());
        assert.notEqual(list[0].digest, list[1].digest, resp.describe());
        expectAnnotations(resp, list);
      });

      g.specify('GET request to existing blob with filter should yield 200', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        const { resp, manifests: list } = await referrers(manifests[4].digest, d.artifactTypeA);
        // OCI-Filters-Applied: artifactType says the artifactType filter was applied
        if (resp.header('OCI-Filters-Applied') !== '') {
          assert.equal(list.length, 2, resp.describe());
          expectHeader(resp, 'OCI-Filters-Applied', ARTIFACT_TYPE_FILTER);
        } else {
          assert.equal(list.length, 5, resp.describe());
          warn('filtering by artifact-type is not implemented');
        }
        expectAnnotations(resp, list);
      });

      g.specify('GET request to missing manifest should yield 200', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        const { resp, manifests: list } = await referrers(manifests[3].digest);
        assert.equal(list.length, 1, resp.describe());
        assert.equal(list[0].digest, d.refsManifestCLayerArtifact.digest, resp.describe());
      });
    });

    g.context('Teardown', (g) => {
      const deleteStatuses: Array<number | '2xx'> = ['2xx', 404, 405];
      const deleteManifests = () =>
        g.specify('Delete created manifest & associated tags', async () => {
          s.skipIfDisabled(CONTENT_DISCOVERY);
          runOnlyIf(s.runContentDiscoverySetup);
          const references = [
            d.refsIndexArtifact.digest,
            manifests[2].digest,
            manifests[4].digest,
            d.refsManifestAConfigArtifact.digest,
            d.refsManifestALayerArtifact.digest,
            d.refsManifestBConfigArtifact.digest,
            d.refsManifestBLayerArtifact.digest,
            d.refsManifestCLayerArtifact.digest,
          ];
          for (const digest of references) {
            expectStatusIn(await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/manifests/<digest>', { digest })), deleteStatuses);
          }
        });
      const deleteBlob = (name: string, digest: string) =>
        g.specify(name, async () => {
          s.skipIfDisabled(CONTENT_DISCOVERY);
          runOnlyIf(s.runContentDiscoverySetup);
          expectStatusIn(await s.client.do(s.client.newRequest('DELETE', '/v2/<name>/blobs/<digest>', { digest })), deleteStatuses);
        });

      if (s.deleteManifestBeforeBlobs) deleteManifests();
      deleteBlob('Delete config blob created in tests', configs[2].digest);
      deleteBlob('Delete layer blob created in setup', layer.digest);
      if (!s.deleteManifestBeforeBlobs) deleteManifests();

      g.specify('References teardown', async () => {
        s.skipIfDisabled(CONTENT_DISCOVERY);
        runOnlyIf(s.runContentDiscoverySetup);
        const deleteReq = async (kind: 'manifests' | 'blobs', digest: string) => {
          const path = kind === 'manifests' ? '/v2/<name>/manifests/<reference>' : '/v2/<name>/blobs/<digest>';
          const resp = await s.client.do(s.client.newRequest('DELETE', path, kind === 'manifests' ? { reference: digest } : { digest }));
          expectStatusIn(resp, deleteStatuses);
        };
        const deleteReferrers = async () => {
          await deleteReq('manifests', d.refsIndexArtifact.digest);
          await deleteReq('manifests', d.refsManifestAConfigArtifact.digest);
          await deleteReq('manifests', d.refsManifestALayerArtifact.digest);
          await deleteReq('manifests', manifests[4].digest);
          await deleteReq('manifests', d.refsManifestBConfigArtifact.digest);
          await deleteReq('manifests', d.refsManifestBLayerArtifact.digest);
        };

        if (s.deleteManifestBeforeBlobs) await deleteReferrers();
        // config blob, reference blobs and the empty JSON blob created in setup
        await deleteReq('blobs', configs[4].digest);
        await deleteReq('blobs', d.refBlobA.digest);
        await deleteReq('blobs', d.refBlobB.digest);
        await deleteReq('blobs', d.emptyJSONDescriptor.digest);
        if (!s.deleteManifestBeforeBlobs) await deleteReferrers();
      });
    });
  });
}
