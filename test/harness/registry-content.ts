// Puts images into a running Berth's database for tests that need a manifest
// in a repo (tags may only name pushed manifests) before the registry
// listener can push one. Writes through the content model's own functions
// (linkBlob, parseManifest, putManifest) in one transaction, on SQLite or
// PostgreSQL alike; the blob bytes are not stored, as no test here reads them.
import { randomBytes } from 'node:crypto';
import { digestOf } from '../../src/registry/content/digest.js';
import { linkBlob } from '../../src/registry/content/blob-links.js';
import { parseManifest } from '../../src/registry/content/manifest.js';
import { OCI_CONFIG, OCI_INDEX, OCI_LAYER_GZIP, OCI_MANIFEST } from '../../src/registry/content/media-types.js';
import { putManifest } from '../../src/registry/content/put-manifest.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact, type Tx } from '../../src/store/transact.js';

/** The store of a running Berth (close it when done). */
export function openBerthStore(target: { dataDir: string; databaseUrl?: string }): Promise<Store> {
  return openStore({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, poolSize: 2 });
}

export interface ImageSpec {
  architecture?: string;
  os?: string;
  /** Layer sizes in bytes (default one layer of 100). */
  layers?: number[];
}

export interface SeededImage {
  digest: string;
  bytes: Uint8Array;
  /** Config size plus layer sizes. */
  size: number;
}

function blob(size: number): { digest: string; size: number } {
  // A random digest stands for a blob of `size` bytes; only the records matter here.
  return { digest: digestOf(randomBytes(32)), size };
}

async function put(tx: Tx, repoUid: string, body: unknown, platform?: { os: string; architecture: string }): Promise<SeededImage> {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const parsed = parseManifest(bytes, (body as { mediaType: string }).mediaType);
  if (!parsed.ok) throw new Error(`seed manifest refused: ${parsed.failure.message}`);
  const digest = digestOf(bytes);
  const r = await putManifest(tx, repoUid, digest, parsed.manifest, bytes, { platform });
  if (!r.ok) throw new Error(`seed manifest refused: ${r.failure.message}`);
  const size = parsed.manifest.blobs.reduce((s, b) => s + b.size, 0);
  return { digest, bytes, size };
}

/** An OCI image manifest with fresh blobs linked to the repo, stored in `tx`. */
export async function putImage(tx: Tx, repoUid: string, spec: ImageSpec = {}): Promise<SeededImage> {
  const platform = { os: spec.os ?? 'linux', architecture: spec.architecture ?? 'amd64' };
  const config = blob(200);
  const layers = (spec.layers ?? [100]).map(blob);
  for (const b of [config, ...layers]) await linkBlob(tx, repoUid, b.digest, b.size);
  return put(
    tx,
    repoUid,
    {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: OCI_CONFIG, ...config },
      layers: layers.map((l) => ({ mediaType: OCI_LAYER_GZIP, ...l })),
    },
    platform,
  );
}

/** An OCI index over images stored in `tx` (each listed with its platform). */
export async function putIndex(
  tx: Tx,
  repoUid: string,
  images: Array<{ image: SeededImage; architecture: string; os?: string; variant?: string }>,
): Promise<SeededImage> {
  return put(tx, repoUid, {
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: images.map((i) => ({
      mediaType: OCI_MANIFEST,
      digest: i.image.digest,
      size: i.image.bytes.byteLength,
      platform: { os: i.os ?? 'linux', architecture: i.architecture, ...(i.variant ? { variant: i.variant } : {}) },
    })),
  });
}

/** Stores an image in the repo of a running Berth; returns its digest. */
export async function seedImage(target: { dataDir: string; databaseUrl?: string }, repoUid: string, spec: ImageSpec = {}): Promise<string> {
  const store = await openBerthStore(target);
  try {
    return (await transact(store, (tx) => putImage(tx, repoUid, spec))).digest;
  } finally {
    await store.close();
  }
}

export interface SeededIndex {
  digest: string;
  /** The index's images, in index order, with the platform each is listed under. */
  images: Array<SeededImage & { architecture: string; os: string; variant?: string }>;
}

/** Stores one image per platform and an index over them in the repo of a running Berth. */
export async function seedIndex(
  target: { dataDir: string; databaseUrl?: string },
  repoUid: string,
  platforms: Array<{ architecture: string; os?: string; variant?: string; layers?: number[] }>,
): Promise<SeededIndex> {
  const store = await openBerthStore(target);
  try {
    return await transact(store, async (tx) => {
      const images: SeededIndex['images'] = [];
      for (const p of platforms) {
        const os = p.os ?? 'linux';
        const image = await putImage(tx, repoUid, { architecture: p.architecture, os, layers: p.layers });
        images.push({ ...image, architecture: p.architecture, os, variant: p.variant });
      }
      const index = await putIndex(
        tx,
        repoUid,
        images.map((i) => ({ image: i, architecture: i.architecture, os: i.os, variant: i.variant })),
      );
      return { digest: index.digest, images };
    });
  } finally {
    await store.close();
  }
}
