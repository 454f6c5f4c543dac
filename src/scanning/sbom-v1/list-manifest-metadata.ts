// v1 ListManifestMetadata (/manifestmetdata, as the deployed path spells
// it): for each entry, the packages Berth inventoried in one image — the
// image digest named, or the index's image of the named architecture (amd64
// by default) — with their purl and license, as GetSbom reads them. Berth's
// inventory knows no origin purl, EOL date or build time: those stay empty.
// The guard checked manifest.metadata.list at the repo; an unknown repo is
// NOT_FOUND, an unknown digest imageNotFound, an image not yet inventoried
// sbomNotReady (as GetSbom).
import { create } from '@bufbuild/protobuf';
import type { FieldViolation } from '../../core/api-error.js';
import {
  type ManifestMetadataFilter,
  type ManifestMetadataList,
  ManifestMetadataListSchema,
  type ManifestMetadataFilterEntry,
} from '../../gen/berth/registry/v1/registry_pb.js';
import { isPlatformWord } from '../../registry/content/descriptor.js';
import { parseDigest } from '../../registry/content/digest.js';
import { DEFAULT_ARCHITECTURE, imagePlatforms } from '../../registry/content/image-platforms.js';
import { architectureNotFound, imageNotFound } from '../../registry/errors.js';
import { loadRepoRow } from '../../registry/repos/repo-row.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { imageInventory } from './image-inventory.js';
import { badSbomRequest } from './sbom-errors.js';

export const MAX_ENTRIES = 100;

function violationsOf(entries: readonly ManifestMetadataFilterEntry[]): FieldViolation[] {
  if (entries.length === 0) return [{ field: 'items', description: 'name at least one image: items=<image digest> or items=<index digest>/<arch>' }];
  if (entries.length > MAX_ENTRIES) return [{ field: 'items', description: `at most ${MAX_ENTRIES} entries` }];
  const out: FieldViolation[] = [];
  for (const [i, e] of entries.entries()) {
    const f = e.filter;
    const digest = f.case === 'imageDigest' ? f.value : f.case === 'indexFilter' ? f.value.digest : '';
    if (f.case === undefined) out.push({ field: `items[${i}]`, description: 'set image_digest or index_filter' });
    else if (!parseDigest(digest))
      out.push({ field: `items[${i}]`, description: 'the digest must be sha256:<64 lowercase hex> or sha512:<128 lowercase hex>' });
    else if (f.case === 'indexFilter' && f.value.arch !== '' && !isPlatformWord(f.value.arch))
      out.push({ field: `items[${i}].index_filter.arch`, description: 'arch must be a word of letters, digits, ".", "_", "+" or "-" (at most 64)' });
  }
  return out;
}

/** The image manifest an entry means. */
async function imageOf(deps: ServiceDeps, repoUid: string, e: ManifestMetadataFilterEntry): Promise<string> {
  const f = e.filter;
  if (f.case === 'imageDigest') return f.value;
  const { digest, arch } = f.value as { digest: string; arch: string };
  const images = await imagePlatforms(deps.store.db, repoUid, digest);
  if (images === undefined) throw imageNotFound(repoUid, digest);
  const want = arch === '' ? DEFAULT_ARCHITECTURE : arch;
  const chosen = images.find((i) => i.architecture === want);
  if (!chosen) throw architectureNotFound(repoUid, digest, want);
  return chosen.digest;
}

export async function listManifestMetadata(deps: ServiceDeps, req: ManifestMetadataFilter): Promise<ManifestMetadataList> {
  const bad = violationsOf(req.items);
  if (bad.length > 0) throw badSbomRequest(bad);
  await loadRepoRow(deps.store.db, req.repoId);
  const items: ManifestMetadataList['items'] = [];
  for (const entry of req.items) {
    const digest = await imageOf(deps, req.repoId, entry);
    const inv = await imageInventory(deps.store.db, req.repoId, digest);
    items.push({
      $typeName: 'berth.registry.v1.ManifestMetadata',
      digest,
      pkgMetadata: inv.packages.map((p) => ({
        $typeName: 'berth.registry.v1.PkgMetadata',
        purl: p.purl,
        originPurl: '',
        license: (p.licenses ?? []).join(' AND '),
      })),
    });
  }
  return create(ManifestMetadataListSchema, { items });
}
