// parseManifest: the four manifest formats, how Content-Type and the body's
// mediaType decide the format, the referrers artifactType rules, and the
// bodies it refuses (with the OCI error code the registry answers).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configPlatform } from '../../src/registry/content/config-platform.js';
import { parseManifest, MAX_DESCRIPTORS, type ParsedManifest } from '../../src/registry/content/manifest.js';
import {
  DOCKER_CONFIG,
  DOCKER_LAYER,
  DOCKER_MANIFEST,
  DOCKER_MANIFEST_LIST,
  OCI_CONFIG,
  OCI_EMPTY,
  OCI_INDEX,
  OCI_LAYER_GZIP,
  OCI_MANIFEST,
} from '../../src/registry/content/media-types.js';

const d = (c: string) => `sha256:${c.repeat(64)}`;
const CONFIG = { mediaType: OCI_CONFIG, digest: d('c'), size: 7023 };
const LAYER = { mediaType: OCI_LAYER_GZIP, digest: d('1'), size: 32654 };
const bytes = (body: unknown) => new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));

function ok(body: unknown, contentType?: string): ParsedManifest {
  const r = parseManifest(bytes(body), contentType);
  if (!r.ok) assert.fail(`refused: ${r.failure.message}`);
  return r.manifest;
}

function refused(body: unknown, contentType: string | undefined, code: string, message: RegExp): void {
  const r = parseManifest(body instanceof Uint8Array ? body : bytes(body), contentType);
  assert.equal(r.ok, false, 'accepted');
  if (r.ok) return;
  assert.equal(r.failure.code, code, r.failure.message);
  assert.match(r.failure.message, message);
}

const image = { schemaVersion: 2, mediaType: OCI_MANIFEST, config: CONFIG, layers: [LAYER] };

describe('parsing manifests', () => {
  it('reads an OCI image manifest: blobs, subject, annotations, and the config type as artifactType', () => {
    const m = ok({ ...image, subject: { mediaType: OCI_MANIFEST, digest: d('5'), size: 10 }, annotations: { 'org.example': 'x' } }, OCI_MANIFEST);
    assert.equal(m.mediaType, OCI_MANIFEST);
    assert.equal(m.kind, 'image');
    assert.deepEqual(m.config, CONFIG);
    assert.deepEqual(m.layers, [LAYER]);
    assert.deepEqual(m.blobs, [CONFIG, LAYER]);
    assert.deepEqual(m.manifests, []);
    assert.equal(m.subject, d('5'));
    assert.equal(m.artifactType, OCI_CONFIG);
    assert.deepEqual(m.annotations, { 'org.example': 'x' });
  });

  it('takes the format from either source when only one names it, and ignores Content-Type parameters', () => {
    assert.equal(ok(image).mediaType, OCI_MANIFEST);
    const { mediaType: _, ...bare } = image;
    assert.equal(ok(bare, OCI_MANIFEST).mediaType, OCI_MANIFEST);
    assert.equal(ok(image, `${OCI_MANIFEST.toUpperCase()}; charset=utf-8`).mediaType, OCI_MANIFEST);
  });

  it('reads an artifact: its own artifactType wins over the empty config', () => {
    const m = ok({ ...image, artifactType: 'application/vnd.example.sbom.v1', config: { mediaType: OCI_EMPTY, digest: d('e'), size: 2 } }, OCI_MANIFEST);
    assert.equal(m.artifactType, 'application/vnd.example.sbom.v1');
    assert.equal(m.config?.mediaType, OCI_EMPTY);
  });

  it('reads an OCI index with platforms; no artifactType unless it names one', () => {
    const entry = { mediaType: OCI_MANIFEST, digest: d('a'), size: 500, platform: { os: 'linux', architecture: 'arm', variant: 'v7', 'os.features': ['x'] } };
    const m = ok({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: [entry, { mediaType: OCI_INDEX, digest: d('b'), size: 3 }] }, OCI_INDEX);
    assert.equal(m.kind, 'index');
    assert.deepEqual(m.manifests[0].platform, { os: 'linux', architecture: 'arm', variant: 'v7' });
    assert.equal(m.manifests[1].platform, undefined);
    assert.deepEqual(m.blobs, []);
    assert.equal(m.artifactType, undefined);
    assert.equal(
      ok({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: [], artifactType: 'application/vnd.example.v1' }).artifactType,
      'application/vnd.example.v1',
    );
  });

  it('reads Docker schema 2 manifests and manifest lists, which carry no subject or artifactType', () => {
    const m = ok(
      {
        schemaVersion: 2,
        mediaType: DOCKER_MANIFEST,
        config: { mediaType: DOCKER_CONFIG, digest: d('c'), size: 1 },
        layers: [{ mediaType: DOCKER_LAYER, digest: d('1'), size: 2 }],
        subject: { mediaType: OCI_MANIFEST, digest: d('5'), size: 1 },
      },
      DOCKER_MANIFEST,
    );
    assert.equal(m.kind, 'image');
    assert.equal(m.subject, undefined);
    assert.equal(m.artifactType, undefined);
    assert.equal(m.blobs.length, 2);
    const list = ok(
      {
        schemaVersion: 2,
        mediaType: DOCKER_MANIFEST_LIST,
        manifests: [{ mediaType: DOCKER_MANIFEST, digest: d('a'), size: 5, platform: { os: 'linux', architecture: 'amd64' } }],
      },
      DOCKER_MANIFEST_LIST,
    );
    assert.equal(list.kind, 'index');
    assert.deepEqual(list.manifests[0].platform, { os: 'linux', architecture: 'amd64' });
  });

  it('does not require layers fetched from their urls, and accepts an empty layer list', () => {
    const external = {
      mediaType: 'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip',
      digest: d('9'),
      size: 5,
      urls: ['https://example.com/blob'],
    };
    const withoutUrls = { ...external, digest: d('8'), urls: undefined };
    const m = ok({ ...image, layers: [external, withoutUrls, LAYER] });
    assert.deepEqual(
      m.blobs.map((b) => b.digest),
      [CONFIG.digest, d('8'), LAYER.digest],
    );
    assert.equal(m.layers.length, 3);
    assert.deepEqual(ok({ ...image, layers: [] }).blobs, [CONFIG]);
  });

  it('refuses a Content-Type and a body mediaType that disagree, and formats it does not store', () => {
    refused(image, OCI_INDEX, 'MANIFEST_INVALID', /mediaType in the manifest must be "application\/vnd\.oci\.image\.index\.v1\+json"/);
    refused(image, 'application/json', 'MANIFEST_INVALID', /unsupported manifest media type "application\/json"/);
    refused({ ...image, mediaType: 'application/vnd.oci.artifact.manifest.v1+json' }, undefined, 'MANIFEST_INVALID', /unsupported manifest media type/);
    refused(
      { schemaVersion: 1 },
      'application/vnd.docker.distribution.manifest.v1+prettyjws',
      'MANIFEST_INVALID',
      /Docker schema 1 manifests are not supported/,
    );
    const { mediaType: _, ...bare } = image;
    refused(bare, undefined, 'MANIFEST_INVALID', /names no media type/);
    // Docker formats must name themselves in the body (distribution requires it).
    refused({ schemaVersion: 2, config: CONFIG, layers: [] }, DOCKER_MANIFEST, 'MANIFEST_INVALID', /mediaType in the manifest must be/);
    refused({ ...image, mediaType: 7 }, OCI_MANIFEST, 'MANIFEST_INVALID', /^mediaType: must be a string/);
  });

  it('refuses bodies that are not manifests', () => {
    refused(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]), OCI_MANIFEST, 'MANIFEST_INVALID', /^body: must be JSON in UTF-8/);
    refused('{"schemaVersion": 2,', OCI_MANIFEST, 'MANIFEST_INVALID', /^body: must be JSON/);
    refused('[1]', OCI_MANIFEST, 'MANIFEST_INVALID', /^body: must be a JSON object/);
    for (const schemaVersion of [1, '2', undefined, 2.5]) refused({ ...image, schemaVersion }, OCI_MANIFEST, 'MANIFEST_INVALID', /^schemaVersion: must be 2/);
    refused({ ...image, manifests: [] }, OCI_MANIFEST, 'MANIFEST_INVALID', /expected a manifest but found an index/);
    refused({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: [], layers: [] }, OCI_INDEX, 'MANIFEST_INVALID', /expected an index but found a manifest/);
    refused({ ...image, config: undefined }, OCI_MANIFEST, 'MANIFEST_INVALID', /^config: is required/);
    refused({ ...image, layers: {} }, OCI_MANIFEST, 'MANIFEST_INVALID', /^layers: must be an array/);
    refused({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: 'x' }, OCI_INDEX, 'MANIFEST_INVALID', /^manifests: must be an array/);
    refused({ ...image, annotations: { a: 1 } }, OCI_MANIFEST, 'MANIFEST_INVALID', /^annotations: values must be strings/);
    refused({ ...image, artifactType: 'not a type' }, OCI_MANIFEST, 'MANIFEST_INVALID', /^artifactType: must be a media type name/);
  });

  it('refuses bad descriptors, naming the field', () => {
    const bad = (layer: unknown, code: string, message: RegExp) => refused({ ...image, layers: [LAYER, layer] }, OCI_MANIFEST, code, message);
    bad('x', 'MANIFEST_INVALID', /^layers\[1\]: must be a descriptor object/);
    bad({ ...LAYER, mediaType: undefined }, 'MANIFEST_INVALID', /^layers\[1\]\.mediaType: a media type is required/);
    bad({ ...LAYER, mediaType: 'tar' }, 'MANIFEST_INVALID', /^layers\[1\]\.mediaType: must be a media type name/);
    bad({ ...LAYER, mediaType: `${OCI_LAYER_GZIP}; x=y` }, 'MANIFEST_INVALID', /^layers\[1\]\.mediaType/);
    for (const digest of [undefined, 'sha256:abc', `sha256:${'A'.repeat(64)}`, `md5:${'a'.repeat(32)}`, `sha512:${'a'.repeat(64)}`]) {
      bad({ ...LAYER, digest }, 'DIGEST_INVALID', /^layers\[1\]\.digest: must be sha256/);
    }
    for (const size of [-1, 1.5, '10', undefined, 2 ** 53]) bad({ ...LAYER, size }, 'MANIFEST_INVALID', /^layers\[1\]\.size: must be a non-negative integer/);
    bad({ ...LAYER, urls: ['ftp://example.com/x'] }, 'MANIFEST_INVALID', /^layers\[1\]\.urls\[0\]: must be an http or https URL/);
    bad({ ...LAYER, annotations: ['x'] }, 'MANIFEST_INVALID', /^layers\[1\]\.annotations: must be an object/);
    bad({ ...LAYER, data: 5 }, 'MANIFEST_INVALID', /^layers\[1\]\.data: must be base64 text/);
    refused({ ...image, subject: { mediaType: OCI_MANIFEST, digest: 'nope', size: 1 } }, OCI_MANIFEST, 'DIGEST_INVALID', /^subject\.digest/);
    const entry = (platform: unknown) => ({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [{ mediaType: OCI_MANIFEST, digest: d('a'), size: 1, platform }],
    });
    refused(entry({ os: 'linux' }), OCI_INDEX, 'MANIFEST_INVALID', /^manifests\[0\]\.platform\.architecture: must be a word/);
    refused(entry({ os: 'linux', architecture: 'amd\u000064' }), OCI_INDEX, 'MANIFEST_INVALID', /^manifests\[0\]\.platform\.architecture/);
    refused(entry('linux/amd64'), OCI_INDEX, 'MANIFEST_INVALID', /^manifests\[0\]\.platform: must be an object/);
  });

  it('bounds the number of descriptors', () => {
    const layers = Array.from({ length: MAX_DESCRIPTORS }, () => LAYER);
    assert.equal(ok({ ...image, layers }).layers.length, MAX_DESCRIPTORS);
    refused({ ...image, layers: [...layers, LAYER] }, OCI_MANIFEST, 'MANIFEST_INVALID', /^layers: at most 10000 descriptors/);
  });

  it('reads only own fields: keys named like Object members are plain data', () => {
    refused(
      '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","__proto__":{"config":{}}}',
      undefined,
      'MANIFEST_INVALID',
      /^config: is required/,
    );
    assert.equal(ok({ ...image, constructor: 'x', toString: 1 }).kind, 'image');
  });

  it('reads the platform a config declares, and nothing from configs it cannot use', () => {
    assert.deepEqual(configPlatform(bytes({ os: 'linux', architecture: 'arm64', variant: 'v8', rootfs: {} })), {
      os: 'linux',
      architecture: 'arm64',
      variant: 'v8',
    });
    assert.deepEqual(configPlatform(bytes({ os: 'linux', architecture: 'amd64', variant: 3 })), { os: 'linux', architecture: 'amd64' });
    for (const body of ['{}', '[]', 'not json', { os: 'linux' }, { os: 'linux', architecture: 'a b' }, { os: 'linux', architecture: 'x'.repeat(65) }]) {
      assert.equal(configPlatform(bytes(body)), undefined, JSON.stringify(body));
    }
  });
});
