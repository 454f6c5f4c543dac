// The SBOMs attached as referrers to an image or to an index listing it: SPDX
// JSON, CycloneDX JSON, and Harbor's SBOM artifact (one layer holding either).
// Bounded: at most MAX_SBOMS referrers, each document at most MAX_SBOM_BYTES (sbom-documents.ts);
// what is left out is reported as skipped.
import { buffer } from 'node:stream/consumers';
import type { BlobStore } from '../../registry/blobs/blob-store.js';
import { parseDigest } from '../../registry/content/digest.js';
import { parseManifest } from '../../registry/content/manifest.js';
import type { Executor } from '../../store/transact.js';
import type { SkippedEntry } from '../inventory/inventory.js';
import { MAX_SBOM_BYTES, type SbomFormat } from '../inventory/sbom-documents.js';

export const SPDX_JSON = 'application/spdx+json';
export const CYCLONEDX_JSON = 'application/vnd.cyclonedx+json';
export const HARBOR_SBOM = 'application/vnd.goharbor.harbor.sbom.v1';
export const SBOM_ARTIFACT_TYPES: readonly string[] = [SPDX_JSON, CYCLONEDX_JSON, HARBOR_SBOM];

export const MAX_SBOMS = 16;

export interface AttachedSbom {
  /** The referrer manifest's digest. */
  digest: string;
  format: SbomFormat;
  bytes: Uint8Array;
}

function formatOf(mediaType: string): SbomFormat | undefined {
  if (mediaType === SPDX_JSON) return 'spdx-json';
  if (mediaType === CYCLONEDX_JSON) return 'cyclonedx-json';
  return undefined;
}

export async function attachedSboms(db: Executor, blobs: BlobStore, subjects: readonly string[]): Promise<{ sboms: AttachedSbom[]; skipped: SkippedEntry[] }> {
  const rows = await db
    .selectFrom('manifests')
    .select(['digest', 'media_type', 'artifact_type', 'content'])
    .where('subject_digest', 'in', [...subjects])
    .where('artifact_type', 'in', [...SBOM_ARTIFACT_TYPES])
    .orderBy('digest')
    // The same referrer may sit in several repos; a few rows per SBOM read is plenty.
    .limit(MAX_SBOMS * 4)
    .execute();
  const sboms: AttachedSbom[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.digest)) continue; // the same referrer in several repos
    seen.add(r.digest);
    if (sboms.length >= MAX_SBOMS) {
      skipped.push({ path: `sbom:${r.digest}`, reason: `only ${MAX_SBOMS} attached SBOMs are read` });
      continue;
    }
    const parsed = parseManifest(r.content, r.media_type);
    if (!parsed.ok) continue;
    // The layer typed as an SBOM; else, for an SPDX or CycloneDX artifact, its one layer (typed plain JSON by some tools).
    const byType = formatOf(r.artifact_type ?? '');
    const typed = parsed.manifest.layers.find((l) => formatOf(l.mediaType) !== undefined);
    const layer = typed ?? (byType && parsed.manifest.layers.length === 1 ? parsed.manifest.layers[0] : undefined);
    const format = layer && (formatOf(layer.mediaType) ?? byType);
    const digest = layer && parseDigest(layer.digest);
    if (!layer || !format || !digest) {
      skipped.push({ path: `sbom:${r.digest}`, reason: 'the referrer has no SPDX or CycloneDX JSON layer' });
      continue;
    }
    if (layer.size > MAX_SBOM_BYTES) {
      skipped.push({ path: `sbom:${r.digest}`, reason: `the SBOM is ${layer.size} bytes, over the ${MAX_SBOM_BYTES} read` });
      continue;
    }
    const body = await blobs.read(digest, { offset: 0, end: MAX_SBOM_BYTES });
    if (!body) {
      skipped.push({ path: `sbom:${r.digest}`, reason: 'the SBOM blob is not in the blob store' });
      continue;
    }
    sboms.push({ digest: r.digest, format, bytes: await buffer(body) });
  }
  return { sboms, skipped };
}
