// Writes OCI image layouts on disk (oci-layout, index.json, blobs/) for real
// registry clients to push: `skopeo copy oci:<dir>:<tag> docker://…`. Layers
// are random bytes streamed to disk, so a test can push a layer of any size
// without holding it in memory; the digests are returned so tests can check
// what the registry stored.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { type LayerFiles, writeFileLayer } from './oci-file-layers.js';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
export const OCI_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os: string; architecture: string; variant?: string };
  annotations?: Record<string, string>;
  artifactType?: string;
}

export interface ImageSpec {
  architecture?: string;
  os?: string;
  variant?: string;
  /** Layer sizes in bytes (random content). */
  layers?: number[];
  /** Layers of real files (tar.gz, oci-file-layers.ts), after the random ones. */
  fileLayers?: LayerFiles[];
}

export interface WrittenImage {
  manifest: Descriptor;
  config: Descriptor;
  layers: Descriptor[];
  /** config + layers: the image size the API reports for this platform. */
  size: number;
}

function blobPath(dir: string, digest: string): string {
  const [alg, hex] = digest.split(':');
  mkdirSync(join(dir, 'blobs', alg), { recursive: true });
  return join(dir, 'blobs', alg, hex);
}

function writeBlob(dir: string, bytes: Uint8Array, mediaType: string): Descriptor {
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  writeFileSync(blobPath(dir, digest), bytes);
  return { mediaType, digest, size: bytes.length };
}

/** A random blob of `size` bytes written in 1 MiB pieces. */
async function writeRandomBlob(dir: string, size: number, mediaType: string): Promise<Descriptor> {
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  const tmp = join(dir, 'blobs', 'sha256', `tmp-${randomBytes(6).toString('hex')}`);
  const out = createWriteStream(tmp);
  const hash = createHash('sha256');
  for (let left = size; left > 0; ) {
    const piece = randomBytes(Math.min(left, 1 << 20));
    hash.update(piece);
    if (!out.write(piece)) await new Promise<void>((r) => out.once('drain', () => r()));
    left -= piece.length;
  }
  out.end();
  await finished(out);
  const digest = `sha256:${hash.digest('hex')}`;
  renameSync(tmp, blobPath(dir, digest));
  return { mediaType, digest, size };
}

function json(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value));
}

function writeIndexJson(dir: string, manifests: Descriptor[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests }));
}

async function writeImageBlobs(dir: string, spec: ImageSpec): Promise<WrittenImage> {
  const architecture = spec.architecture ?? 'amd64';
  const os = spec.os ?? 'linux';
  const layers: Descriptor[] = [];
  for (const size of spec.layers ?? (spec.fileLayers ? [] : [1024])) layers.push(await writeRandomBlob(dir, size, OCI_LAYER));
  for (const files of spec.fileLayers ?? []) layers.push(await writeFileLayer(dir, files));
  const configBody = {
    architecture,
    os,
    ...(spec.variant ? { variant: spec.variant } : {}),
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.digest) },
    config: {},
  };
  const config = writeBlob(dir, json(configBody), OCI_CONFIG);
  const manifestBody = { schemaVersion: 2, mediaType: OCI_MANIFEST, config, layers };
  const manifest = writeBlob(dir, json(manifestBody), OCI_MANIFEST);
  manifest.platform = { os, architecture, ...(spec.variant ? { variant: spec.variant } : {}) };
  return { manifest, config, layers, size: config.size + layers.reduce((a, l) => a + l.size, 0) };
}

/** A single-platform image tagged `tag` in the layout at `dir`. */
export async function writeImage(dir: string, tag: string, spec: ImageSpec = {}): Promise<WrittenImage> {
  const image = await writeImageBlobs(dir, spec);
  const { platform: _platform, ...desc } = image.manifest;
  writeIndexJson(dir, [{ ...desc, annotations: { 'org.opencontainers.image.ref.name': tag } }]);
  return image;
}

export interface WrittenIndex {
  index: Descriptor;
  images: WrittenImage[];
}

/** A multi-platform image (an image index over one image per spec) tagged `tag`. */
export async function writeMultiArchImage(dir: string, tag: string, specs: ImageSpec[]): Promise<WrittenIndex> {
  const images: WrittenImage[] = [];
  for (const spec of specs) images.push(await writeImageBlobs(dir, spec));
  const indexBody = { schemaVersion: 2, mediaType: OCI_INDEX, manifests: images.map((i) => i.manifest) };
  const index = writeBlob(dir, json(indexBody), OCI_INDEX);
  writeIndexJson(dir, [{ ...index, annotations: { 'org.opencontainers.image.ref.name': tag } }]);
  return { index, images };
}
