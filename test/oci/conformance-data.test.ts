// Pins the Go-isms of the conformance port that no registry run would notice if
// they drifted: json.MarshalIndent's exact bytes (field order, omitempty, null
// for a nil []byte, base64 for []byte, HTML-safe escapes), the chunk split of
// setupChunkedBlob, and the query encoding resty puts on the wire.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { queryEscape, RegistryClient } from './conformance/client.js';
import { unmarshalIndex, unmarshalTagList } from './conformance/go-unmarshal.js';
import { digestOf, marshalIndex, marshalManifest } from './conformance/image.js';
import { chunkedBlob, createTestData } from './conformance/setup.js';

describe('conformance port test data', () => {
  it('marshals a manifest as json.MarshalIndent(v, "", "\\t") does', () => {
    const config = Buffer.from('{}');
    const text = marshalManifest({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: digestOf(config),
        size: 2,
        data: config,
        newUnspecifiedField: Buffer.from('hello world'),
      },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: 'sha256:00', size: 1 }],
      annotations: { z: 'a<b>&c', a: '' },
    }).toString();
    const expected = [
      '{',
      '\t"schemaVersion": 2,',
      '\t"mediaType": "application/vnd.oci.image.manifest.v1+json",',
      '\t"config": {',
      '\t\t"mediaType": "application/vnd.oci.image.config.v1+json",',
      '\t\t"digest": "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",',
      '\t\t"size": 2,',
      '\t\t"data": "e30=",',
      '\t\t"newUnspecifiedField": "aGVsbG8gd29ybGQ="',
      '\t},',
      '\t"layers": [',
      '\t\t{',
      '\t\t\t"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",',
      '\t\t\t"digest": "sha256:00",',
      '\t\t\t"size": 1,',
      '\t\t\t"newUnspecifiedField": null',
      '\t\t}',
      '\t],',
      '\t"annotations": {',
      '\t\t"a": "",',
      '\t\t"z": "a\\u003cb\\u003e\\u0026c"',
      '\t}',
      '}',
    ].join('\n');
    assert.equal(text, expected);
  });

  it('leaves out empty omitempty fields and keeps empty arrays', () => {
    const text = marshalIndex({ schemaVersion: 2, manifests: [] }).toString();
    assert.equal(text, '{\n\t"schemaVersion": 2,\n\t"manifests": []\n}');
  });

  it('builds the data of setup.go', () => {
    const d = createTestData();
    assert.equal(d.configs.length, 16);
    assert.equal(d.manifests.length, 16);
    assert.match(
      d.configs[0].content.toString(),
      /^\{\n\t"author": "[0-9A-Za-z-]{16}",\n\t"architecture": "amd64",\n\t"os": "linux",\n\t"rootfs": \{\n\t\t"type": "layers",\n\t\t"diff_ids": \[\]\n\t\}\n\}$/,
    );
    assert.notEqual(d.configs[0].digest, d.configs[1].digest);
    assert.match(gunzipSync(d.layer.content).toString('latin1'), /^test\.txt\0[\s\S]*you bothered to find out what was in here\. Congratulations!\n/);
    assert.equal(d.emptyJSONDescriptor.digest, 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    assert.equal(d.dummyDigest, 'sha256:b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9');
    assert.ok(!('mediaType' in JSON.parse(d.emptyLayerManifest.content.toString())), 'the empty-layer manifest has no mediaType, as in setup.go');
    const refs = JSON.parse(d.refsIndexArtifact.content.toString());
    assert.equal(refs.subject.digest, d.manifests[4].digest);
    assert.deepEqual([...d.annotationValues.values()].sort(), ['test config a', 'test config b', 'test index', 'test layer a', 'test layer b']);
  });

  it('splits the chunked blob as setupChunkedBlob does', () => {
    const b = chunkedBlob(42);
    assert.deepEqual([b.chunk1Length, b.chunk1Range, b.chunk2Length, b.chunk2Range], ['22', '0-21', '20', '22-41']);
    assert.ok(Buffer.concat([b.chunk1, b.chunk2]).equals(b.blob));
    assert.equal(b.digest, digestOf(b.blob));
  });

  it('encodes query parameters as resty does: sorted, QueryEscape, after the path’s own query', () => {
    assert.equal(queryEscape('repository:a/b:pull,push x~!*'), 'repository%3Aa%2Fb%3Apull%2Cpush+x~%21%2A');
    const client = new RegistryClient({ address: 'http://127.0.0.1:1', defaultName: 'org/repo' });
    const req = client.newRequest('PUT', '/v2/org/repo/blobs/uploads/u1?_state=abc%3D').setQueryParam('n', '2').setQueryParam('digest', 'sha256:00');
    assert.equal(req.fullUrl(), 'http://127.0.0.1:1/v2/org/repo/blobs/uploads/u1?_state=abc%3D&digest=sha256%3A00&n=2');
    assert.equal(client.newRequest('GET', '/v2/<name>/manifests/<reference>', { reference: 'latest' }).url, 'http://127.0.0.1:1/v2/org/repo/manifests/latest');
    client.close();
  });

  it('refuses a request whose path still holds a placeholder, as reggie does', async () => {
    const client = new RegistryClient({ address: 'http://127.0.0.1:1', defaultName: 'org/repo' });
    await assert.rejects(client.do(client.newRequest('GET', '/v2/<name>/blobs/<digest>')), /request is invalid/);
    client.close();
  });

  it("reads answers back with json.Unmarshal's type checks", () => {
    const index = unmarshalIndex(
      '{"schemaVersion":2,"Manifests":[{"mediaType":"m","digest":"sha256:00","size":3,"annotations":{"k":"v"},"extra":[1]}],"other":true}',
    );
    assert.deepEqual(
      index.manifests.map((m) => [m.digest, m.size, m.annotations]),
      [['sha256:00', 3, { k: 'v' }]],
    );
    assert.deepEqual(unmarshalIndex('{"manifests":null}').manifests, []);
    assert.throws(() => unmarshalIndex('{"manifests":[{"size":"3"}]}'), /int64/);
    assert.throws(() => unmarshalIndex('{"manifests":[{"annotations":{"k":1}}]}'), /string/);
    assert.throws(() => unmarshalIndex('{"manifests":{}}'), /slice/);
    assert.throws(() => unmarshalIndex('[]'), /index/);
    assert.deepEqual(unmarshalTagList('{"name":"a/b","tags":["x","y"]}'), ['x', 'y']);
    assert.deepEqual(unmarshalTagList('{"name":"a/b","tags":null}'), []);
    assert.throws(() => unmarshalTagList('{"tags":[1]}'), /string/);
  });
});
