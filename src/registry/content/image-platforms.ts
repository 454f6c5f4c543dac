// The Images API's two answers, from the database alone: which architectures
// a digest offers, and the size of the image one architecture pulls (config
// plus layers, as the reference API sums it).
// - An index offers the architectures of its entries, in index order, once
//   each; an entry without a platform contributes its child's (below);
//   "unknown" (BuildKit's attestation entries) is not an architecture.
// - A single image offers the architecture of its config, which putManifest
//   stored when the registry listener read it; none when that is unknown.
// The size of an architecture in an index is that of the first entry for it
// (the image spec: "the first matching entry SHOULD be used"). A single image
// of unknown platform answers for any architecture: it is what a client of
// any architecture would pull. Nested indexes are not descended.
// imagePlatforms lists the images themselves (Berth's GetPlatforms): every
// index entry whose child is a held image, attestations left out, with the
// child's digest and size; a single image lists itself.
import type { Executor } from '../../store/transact.js';
import { isIndexMediaType, isManifestMediaType } from './media-types.js';

const NOT_AN_ARCHITECTURE = 'unknown';

interface Head {
  media_type: string;
  os: string | null;
  architecture: string | null;
  variant: string | null;
}

function isIndex(m: Head): boolean {
  return isManifestMediaType(m.media_type) && isIndexMediaType(m.media_type);
}

async function head(ex: Executor, repoUid: string, digest: string): Promise<Head | undefined> {
  return ex
    .selectFrom('manifests')
    .select(['media_type', 'os', 'architecture', 'variant'])
    .where('repo_uid', '=', repoUid)
    .where('digest', '=', digest)
    .executeTakeFirst();
}

interface Entry {
  child: string;
  /** The entry's own platform when it has one, else its child's (null when neither says). */
  os: string | null;
  architecture: string | null;
  variant: string | null;
  /** Whether the child is an image manifest the repo holds. */
  image: boolean;
}

/** Each entry of an index with the platform it stands for (its own, else its child's) and whether the child is a held image. */
async function entries(ex: Executor, repoUid: string, digest: string): Promise<Entry[]> {
  const refs = await ex
    .selectFrom('manifest_refs')
    .select(['child_digest', 'os', 'architecture', 'variant'])
    .where('repo_uid', '=', repoUid)
    .where('manifest_digest', '=', digest)
    .orderBy('position')
    .execute();
  const children = new Map<string, Head & { digest: string }>();
  const wanted = [...new Set(refs.map((r) => r.child_digest))];
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await ex
      .selectFrom('manifests')
      .select(['digest', 'media_type', 'os', 'architecture', 'variant'])
      .where('repo_uid', '=', repoUid)
      .where('digest', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const r of rows) children.set(r.digest, r);
  }
  return refs.map((r) => {
    const child = children.get(r.child_digest);
    const image = child !== undefined && !isIndex(child);
    const from = r.architecture !== null ? r : (child ?? r);
    return { child: r.child_digest, os: from.os, architecture: from.architecture, variant: from.variant, image };
  });
}

/** Sum of the blob sizes an image manifest lists (config and layers). */
async function imageBytes(ex: Executor, repoUid: string, digest: string): Promise<number> {
  const rows = await ex
    .selectFrom('manifest_refs')
    .select('size')
    .where('repo_uid', '=', repoUid)
    .where('manifest_digest', '=', digest)
    .where('kind', '=', 'blob')
    .execute();
  return rows.reduce((sum, r) => sum + Number(r.size), 0);
}

/** The architectures the manifest `digest` offers; undefined when the repo does not hold it. */
export async function imageArchitectures(ex: Executor, repoUid: string, digest: string): Promise<string[] | undefined> {
  const m = await head(ex, repoUid, digest);
  if (!m) return undefined;
  if (!isIndex(m)) return m.architecture === null ? [] : [m.architecture];
  const seen = new Set<string>();
  for (const e of await entries(ex, repoUid, digest)) {
    if (e.architecture !== null && e.architecture !== NOT_AN_ARCHITECTURE) seen.add(e.architecture);
  }
  return [...seen];
}

/** The architecture the reference API sizes when the request names none. */
export const DEFAULT_ARCHITECTURE = 'amd64';

/** Bytes of config plus layers of the image `architecture` pulls from `digest`; undefined when there is none. */
export async function imageSize(ex: Executor, repoUid: string, digest: string, architecture = DEFAULT_ARCHITECTURE): Promise<number | undefined> {
  const m = await head(ex, repoUid, digest);
  if (!m) return undefined;
  if (!isIndex(m)) return m.architecture === null || m.architecture === architecture ? imageBytes(ex, repoUid, digest) : undefined;
  if (architecture === NOT_AN_ARCHITECTURE) return undefined;
  const chosen = (await entries(ex, repoUid, digest)).find((e) => e.architecture === architecture && e.image);
  return chosen === undefined ? undefined : imageBytes(ex, repoUid, chosen.child);
}

/** One image a digest offers, as GetPlatforms reports it ("" for what is not known). */
export interface PlatformImage {
  os: string;
  architecture: string;
  variant: string;
  /** The image manifest's digest. */
  digest: string;
  /** Config plus layers. */
  size: number;
}

/** Config-plus-layers bytes of several held image manifests, in one grouped read per 500. */
async function imagesBytes(ex: Executor, repoUid: string, digests: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const wanted = [...new Set(digests)];
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await ex
      .selectFrom('manifest_refs')
      .select((eb) => ['manifest_digest', eb.fn.sum<number | string>('size').as('bytes')])
      .where('repo_uid', '=', repoUid)
      .where('manifest_digest', 'in', wanted.slice(i, i + 500))
      .where('kind', '=', 'blob')
      .groupBy('manifest_digest')
      .execute();
    for (const r of rows) out.set(r.manifest_digest, Number(r.bytes));
  }
  return out;
}

/** The images the manifest `digest` offers, in index order; undefined when the repo does not hold it. */
export async function imagePlatforms(ex: Executor, repoUid: string, digest: string): Promise<PlatformImage[] | undefined> {
  const m = await head(ex, repoUid, digest);
  if (!m) return undefined;
  const images = isIndex(m)
    ? (await entries(ex, repoUid, digest)).filter((e) => e.image && e.architecture !== NOT_AN_ARCHITECTURE)
    : [{ child: digest, os: m.os, architecture: m.architecture, variant: m.variant }];
  const bytes = await imagesBytes(
    ex,
    repoUid,
    images.map((e) => e.child),
  );
  return images.map((e) => ({
    os: e.os ?? '',
    architecture: e.architecture ?? '',
    variant: e.variant ?? '',
    digest: e.child,
    size: bytes.get(e.child) ?? 0,
  }));
}
