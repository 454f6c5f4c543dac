// Port of the test data built by init() in conformance/setup.go (distribution-spec
// v1.1.1). Deterministic content is byte-identical to the Go suite's: the layer
// tarball, the manifests, index and referrers artifacts (marshalled as Go does,
// see image.ts). Random content stays random: each config gets a random 16-char
// author (so every run pushes new config digests), and blobs A and B are 42
// random bytes (Go seeds math/rand from ginkgo's random seed; the port draws
// them from crypto.randomBytes, which is as unpredictable and the same size).
import { randomBytes, randomInt } from 'node:crypto';
import { type Descriptor, digestOf, marshalImageConfig, marshalIndex, marshalManifest, type Manifest } from './image.js';

export interface TestBlob {
  content: Buffer;
  contentLength: string;
  digest: string;
}

/** Bit flags of the workflows, as in setup.go (pull = 1 << iota …). */
export const PULL = 1;
export const PUSH = 2;
export const CONTENT_DISCOVERY = 4;
export const CONTENT_MANAGEMENT = 8;
/** setup.go's numWorkflows is the next `1 << iota`, 16: that many configs and manifests are built. */
const NUM_WORKFLOWS = 16;

export const ERROR_CODES = [
  'BLOB_UNKNOWN',
  'BLOB_UPLOAD_INVALID',
  'BLOB_UPLOAD_UNKNOWN',
  'DIGEST_INVALID',
  'MANIFEST_BLOB_UNKNOWN',
  'MANIFEST_INVALID',
  'MANIFEST_UNKNOWN',
  'MANIFEST_UNVERIFIED',
  'NAME_INVALID',
  'NAME_UNKNOWN',
  'SIZE_INVALID',
  'TAG_INVALID',
  'UNAUTHORIZED',
  'DENIED',
  'UNSUPPORTED',
];

export const EMPTY_LAYER_TEST_TAG = 'emptylayer';
export const TEST_TAG_NAME = 'tagtest0';
export const ARTIFACT_TYPE_FILTER = 'artifactType';
export const NONEXISTENT_MANIFEST = '.INVALID_MANIFEST_NAME';
export const INVALID_MANIFEST_CONTENT = Buffer.from('blablabla');
export const TEST_ANNOTATION_KEY = 'org.opencontainers.conformance.test';

const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

/**
 * A base64 encoding of a simple tarball:
 *   echo 'you bothered to find out what was in here. Congratulations!' > test.txt
 *   tar czvf test.tar.gz test.txt
 */
const LAYER_BASE64 =
  'H4sIAAAAAAAAA+3OQQrCMBCF4a49xXgBSUnaHMCTRBptQRNpp6i3t0UEV7oqIv7fYgbmzeJpHHSjVy0' +
  'WZCa1c/MufWVe94N3RWlrZ72x3k/30nhbFWKWLPU0Dhp6keJ8im//PuU/6pZH2WVtYx8b0Sz7LjWSR5VLG6YRBumSzOlGtjkd+qD' +
  'jMWiX07Befbs7AAAAAAAAAAAAAAAAAPyzO34MnqoAKAAA';

/** Overrides the Go suite reads from OCI_BLOB_DIGEST and OCI_MANIFEST_DIGEST. */
export interface DigestOverrides {
  blobDigest?: string;
  manifestDigest?: string;
}

function testBlob(content: Buffer, digestOverride?: string): TestBlob {
  return { content, contentLength: String(content.length), digest: digestOverride || digestOf(content) };
}

/** setup.go randomString: crypto-random letters from the same alphabet. */
function randomString(n: number): string {
  const letters = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-';
  let s = '';
  for (let i = 0; i < n; i++) s += letters[randomInt(letters.length)];
  return s;
}

/** The chunked-upload blob and its two pieces (setupChunkedBlob). */
export interface ChunkedBlob {
  blob: Buffer;
  digest: string;
  chunk1: Buffer;
  chunk1Length: string;
  chunk1Range: string;
  chunk2: Buffer;
  chunk2Length: string;
  chunk2Range: string;
}

export function chunkedBlob(size: number): ChunkedBlob {
  const blob = randomBytes(size);
  const half = Math.floor(size / 2) + 1;
  const chunk1 = blob.subarray(0, half);
  const chunk2 = blob.subarray(half);
  return {
    blob,
    digest: digestOf(blob),
    chunk1,
    chunk1Length: String(chunk1.length),
    chunk1Range: `0-${chunk1.length - 1}`,
    chunk2,
    chunk2Length: String(chunk2.length),
    chunk2Range: `${chunk1.length}-${blob.length - 1}`,
  };
}

function subjectOf(m: TestBlob): Descriptor {
  // setup.go describes the subject with godigest.FromBytes(content), not the (overridable) .digest.
  return { mediaType: OCI_MANIFEST, size: m.content.length, digest: digestOf(m.content) };
}

export function createTestData(overrides: DigestOverrides = {}) {
  const configs: TestBlob[] = [];
  for (let i = 0; i < NUM_WORKFLOWS; i++) {
    const content = marshalImageConfig({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] }, author: randomString(16) });
    configs.push(testBlob(content, overrides.blobDigest));
  }

  const layer = testBlob(Buffer.from(LAYER_BASE64, 'base64'));
  const layers: Descriptor[] = [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', size: layer.content.length, digest: layer.digest }];
  const configDescriptor = (c: TestBlob): Descriptor => ({
    mediaType: 'application/vnd.oci.image.config.v1+json',
    digest: c.digest,
    size: c.content.length,
    data: c.content, // must be the config content
    newUnspecifiedField: Buffer.from('hello world'), // content doesn't matter
  });

  const manifests: TestBlob[] = [];
  for (let i = 0; i < NUM_WORKFLOWS; i++) {
    const content = marshalManifest({ schemaVersion: 2, mediaType: OCI_MANIFEST, config: configDescriptor(configs[i]), layers });
    manifests.push(testBlob(content, overrides.manifestDigest));
  }

  // used in the push test; note: no mediaType field, as in setup.go
  const emptyLayerManifest = testBlob(marshalManifest({ schemaVersion: 2, config: configDescriptor(configs[1]), layers: [] }));

  const testBlobA = testBlob(randomBytes(42));

  // used in the referrers test (artifacts with the subject field set)
  const emptyJSONBlob = Buffer.from('{}');
  const emptyJSONDescriptor: Descriptor = { mediaType: 'application/vnd.oci.empty.v1+json', size: emptyJSONBlob.length, digest: digestOf(emptyJSONBlob) };
  const refBlobA = testBlob(Buffer.from('NHL Peanut Butter on my NHL bagel'));
  const refBlobB = testBlob(Buffer.from('NBA Strawberry Jam on my NBA croissant'));
  const artifactTypeA = 'application/vnd.nhl.peanut.butter.bagel';
  const artifactTypeB = 'application/vnd.nba.strawberry.jam.croissant';
  const artifactTypeIndex = 'application/vnd.food.stand';
  const annotationValues = new Map<string, string>();

  const artifact = (m: Manifest): TestBlob => {
    const blob = testBlob(marshalManifest(m));
    const note = m.annotations?.[TEST_ANNOTATION_KEY];
    if (note !== undefined) annotationValues.set(blob.digest, note);
    return blob;
  };
  const annotate = (value: string) => ({ [TEST_ANNOTATION_KEY]: value });

  // artifact with a subject, config.mediaType = artifactType
  const refsManifestAConfigArtifact = artifact({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: artifactTypeA, size: refBlobA.content.length, digest: refBlobA.digest },
    subject: subjectOf(manifests[4]),
    layers: [emptyJSONDescriptor],
    annotations: annotate('test config a'),
  });
  const refsManifestBConfigArtifact = artifact({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: artifactTypeB, size: refBlobB.content.length, digest: refBlobB.digest },
    subject: subjectOf(manifests[4]),
    layers: [emptyJSONDescriptor],
    annotations: annotate('test config b'),
  });
  // artifact with a subject, artifactType set, config = the empty JSON descriptor
  const refsManifestALayerArtifact = artifact({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: artifactTypeA,
    config: emptyJSONDescriptor,
    subject: subjectOf(manifests[4]),
    layers: [{ mediaType: artifactTypeA, size: refBlobA.content.length, digest: refBlobA.digest }],
    annotations: annotate('test layer a'),
  });
  const refsManifestBLayerArtifact = artifact({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: artifactTypeB,
    config: emptyJSONDescriptor,
    subject: subjectOf(manifests[4]),
    layers: [{ mediaType: artifactTypeB, size: refBlobB.content.length, digest: refBlobB.digest }],
    annotations: annotate('test layer b'),
  });
  // like B, but its subject (manifests[3]) is never pushed before it; no annotations
  const refsManifestCLayerArtifact = artifact({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: artifactTypeB,
    config: emptyJSONDescriptor,
    subject: subjectOf(manifests[3]),
    layers: [{ mediaType: artifactTypeB, size: refBlobB.content.length, digest: refBlobB.digest }],
  });
  const refsIndexArtifact = testBlob(
    marshalIndex({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      artifactType: artifactTypeIndex,
      manifests: [
        { mediaType: OCI_MANIFEST, size: refsManifestAConfigArtifact.content.length, digest: refsManifestAConfigArtifact.digest },
        { mediaType: OCI_MANIFEST, size: refsManifestALayerArtifact.content.length, digest: refsManifestALayerArtifact.digest },
      ],
      subject: subjectOf(manifests[4]),
      annotations: annotate('test index'),
    }),
  );
  annotationValues.set(refsIndexArtifact.digest, 'test index');

  return {
    configs,
    manifests,
    layer,
    emptyLayerManifest,
    testBlobA,
    /** Mutable: the push workflow rebuilds it when the registry asks for bigger chunks. */
    chunked: chunkedBlob(42),
    emptyJSONBlob,
    emptyJSONDescriptor,
    refBlobA,
    refBlobB,
    artifactTypeA,
    artifactTypeB,
    artifactTypeIndex,
    annotationValues,
    refsManifestAConfigArtifact,
    refsManifestBConfigArtifact,
    refsManifestALayerArtifact,
    refsManifestBLayerArtifact,
    refsManifestCLayerArtifact,
    refsIndexArtifact,
    dummyDigest: digestOf('hello world'),
  };
}

export type TestData = ReturnType<typeof createTestData>;
