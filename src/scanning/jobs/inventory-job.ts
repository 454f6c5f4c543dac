// The 'inventory' job: reads an image manifest's layers from the blob store
// through the inventory reader (inventory-layers.ts), merges the SBOMs
// attached to it, and stores the result (inventory-writer.ts) as the run
// finishes, queueing its report's 'rematch' job in the same transaction.
// Inventories are content-addressed: one per manifest digest,
// whichever repos hold it. An index needs none (its children are images),
// nor does a referrer; a manifest no longer stored anywhere is done with
// nothing to write.
import type { CreatedManifest } from '../../registry/content/manifest-observer.js';
import { DOCKER_CONFIG, OCI_CONFIG } from '../../registry/content/media-types.js';
import { parseManifest } from '../../registry/content/manifest.js';
import { writeInventory } from '../inventories/inventory-writer.js';
import { inventoryLayers } from '../inventory/inventory-layers.js';
import { inventoryFromSbom, mergeInventories } from '../inventory/sbom-documents.js';
import { REMATCH_JOB } from '../reports/rematch-job.js';
import { attachedSboms } from './attached-sboms.js';
import { enqueueScanJob } from './enqueue-job.js';
import type { JobContext, JobKind, JobOutcome } from './job-kind.js';
import { layerSources } from './layer-sources.js';

export const INVENTORY_JOB = 'inventory';

/** A container image (not an index, a referrer or another artifact such as a Helm chart). */
export function isContainerImage(m: Pick<CreatedManifest, 'kind' | 'artifactType' | 'subjectDigest'>): boolean {
  if (m.kind !== 'image' || m.subjectDigest !== undefined) return false;
  return m.artifactType === undefined || m.artifactType === OCI_CONFIG || m.artifactType === DOCKER_CONFIG;
}

async function run(ctx: JobContext): Promise<JobOutcome> {
  const { store, blobs, job, progress, signal } = ctx;
  const digest = job.digest;
  const row = await store.db.selectFrom('manifests').select(['media_type', 'content']).where('digest', '=', digest).limit(1).executeTakeFirst();
  if (!row) return {}; // deleted from every repo since it was queued
  const parsed = parseManifest(row.content, row.media_type);
  if (!parsed.ok || parsed.manifest.kind !== 'image') return {};
  const { sources, skipped } = await layerSources(blobs, parsed.manifest.layers, progress, signal);
  let inventory = await inventoryLayers(sources);
  signal.throwIfAborted();
  // SBOMs attached to the image, or to an index that lists it (they describe every platform).
  const parents = await store.db
    .selectFrom('manifest_refs')
    .select('manifest_digest')
    .where('child_digest', '=', digest)
    .where('kind', '=', 'manifest')
    .limit(64)
    .execute();
  const attached = await attachedSboms(store.db, blobs, [digest, ...new Set(parents.map((p) => p.manifest_digest))]);
  const fromSboms = attached.sboms.map((s) => inventoryFromSbom(s.bytes, s.format, s.digest));
  if (fromSboms.length > 0) inventory = mergeInventories(inventory, ...fromSboms);
  inventory = { ...inventory, skipped: [...skipped, ...attached.skipped, ...inventory.skipped] };
  return {
    write: async (tx) => {
      await writeInventory(tx, digest, inventory, { sboms: attached.sboms.map((s) => s.digest) });
      // Its report: matched from the stored inventory, in its own job (src/scanning/reports/).
      await enqueueScanJob(tx, REMATCH_JOB, digest, { again: true });
    },
  };
}

export const inventoryJob: JobKind = {
  triggeredBy: (m) => (isContainerImage(m) ? [m.digest] : []),
  run,
};
