// The inventory an SBOM RPC answers with, for a digest of a repo: an image's
// own, or for an index the union of its image platforms' (each package once,
// by purl; the OS only when every platform agrees). Until each is stored, the
// scan job's state says why not (sbomNotReady, sbomScanFailed).
import { isIndexMediaType, isManifestMediaType } from '../../registry/content/media-types.js';
import { imageNotFound } from '../../registry/errors.js';
import type { Executor } from '../../store/transact.js';
import type { Inventory, InstalledPackage } from '../inventory/inventory.js';
import { loadInventories } from '../inventories/stored-inventory.js';
import { JOB_FAILED } from '../jobs/job-states.js';
import { isContainerImage } from '../jobs/inventory-job.js';
import { sbomNotAnImage, sbomNotReady, sbomScanFailed } from './sbom-errors.js';

/** A stored manifest row as the job kinds judge a new one. */
function asCreated(m: { artifact_type: string | null; subject_digest: string | null }) {
  return {
    kind: 'image' as const,
    ...(m.artifact_type === null ? {} : { artifactType: m.artifact_type }),
    ...(m.subject_digest === null ? {} : { subjectDigest: m.subject_digest }),
  };
}

/** Platforms of one index looked at: more is not an image index anyone pushes. */
const MAX_PLATFORMS = 128;

/** The job's state, in words, for the not-ready answer. */
export async function jobState(db: Executor, digest: string): Promise<string> {
  const job = await db.selectFrom('scan_jobs').selectAll().where('kind', '=', 'inventory').where('digest', '=', digest).executeTakeFirst();
  if (!job) return `no scan is queued for ${digest} yet`;
  if (job.status === JOB_FAILED) throw sbomScanFailed(digest, job.error);
  const progress = job.layers_total > 0 ? `, ${job.layers_done}/${job.layers_total} layers, ${job.bytes_read} bytes read` : '';
  const retry = job.error ? ` (run ${job.attempts} failed: ${job.error.slice(0, 300)}; retried at ${job.next_attempt_time})` : '';
  return `the scan of ${digest} is ${job.status}${progress}${retry}`;
}

export interface ImageInventory extends Inventory {
  /** The image manifests it covers (one for an image, the platforms of an index). */
  images: string[];
  /** When the newest of them was stored. */
  updateTime: string;
}

/**
 * The image manifests `digest` stands for in the repo: itself, or an index's
 * image platforms. NOT_FOUND when the repo does not hold it; NOT_AN_IMAGE for
 * an artifact Berth does not inventory.
 */
export async function imagesOf(db: Executor, repoUid: string, digest: string): Promise<string[]> {
  const m = await db
    .selectFrom('manifests')
    .select(['media_type', 'artifact_type', 'subject_digest'])
    .where('repo_uid', '=', repoUid)
    .where('digest', '=', digest)
    .executeTakeFirst();
  if (!m || !isManifestMediaType(m.media_type)) throw imageNotFound(repoUid, digest);
  if (!isIndexMediaType(m.media_type) && !isContainerImage(asCreated(m))) throw sbomNotAnImage(digest, m.artifact_type ?? 'none');
  let images = [digest];
  if (isIndexMediaType(m.media_type)) {
    const children = await db
      .selectFrom('manifest_refs')
      .select('child_digest')
      .where('repo_uid', '=', repoUid)
      .where('manifest_digest', '=', digest)
      .where('kind', '=', 'manifest')
      .orderBy('position')
      .limit(MAX_PLATFORMS)
      .execute();
    // Only the children that are images: nested indexes and attestation manifests have no inventory.
    const kinds = await db
      .selectFrom('manifests')
      .select(['digest', 'media_type', 'artifact_type', 'subject_digest'])
      .where('repo_uid', '=', repoUid)
      .where('digest', 'in', children.map((c) => c.child_digest).concat(['']))
      .execute();
    const image = new Set(
      kinds.filter((k) => isManifestMediaType(k.media_type) && !isIndexMediaType(k.media_type) && k.subject_digest === null).map((k) => k.digest),
    );
    images = [...new Set(children.map((c) => c.child_digest))].filter((c) => image.has(c));
  }
  return images;
}

/** The inventory of `digest` in the repo; NOT_FOUND when the repo does not hold it. */
export async function imageInventory(db: Executor, repoUid: string, digest: string): Promise<ImageInventory> {
  const images = await imagesOf(db, repoUid, digest);
  const stored = await loadInventories(db, images);
  for (const image of images) if (!stored.has(image)) throw sbomNotReady(await jobState(db, image));
  const parts = images.map((i) => stored.get(i)!);
  const packages: InstalledPackage[] = [];
  const seen = new Set<string>();
  for (const p of parts.flatMap((x) => x.packages)) {
    const key = p.purl || `${p.type}/${p.name}@${p.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    packages.push(p);
  }
  const oses = new Set(parts.map((x) => JSON.stringify(x.os ?? null)));
  const os = oses.size === 1 ? parts[0]?.os : undefined;
  return {
    images,
    ...(os ? { os } : {}),
    packages,
    skipped: parts.flatMap((x) => x.skipped),
    updateTime:
      parts
        .map((x) => x.updateTime)
        .sort()
        .at(-1) ?? '',
  };
}
