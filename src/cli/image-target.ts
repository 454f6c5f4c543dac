// An image named on the command line as ORG/IMAGE[:TAG|@DIGEST], resolved
// over the API to the repo, the digest it names (a tag through ListTags) and,
// for an index, the image of one platform (GetPlatforms), as chainctl picks
// one with --platform (default linux/amd64). What vulnerability reports and
// inventories describe is a platform's image, not the index.
import { type ApiClient, type Connection, uidPath } from './api-client.js';
import { resolveRepo } from './image-names.js';
import { type Platform, parsePlatform, pickPlatform } from './platform-flag.js';
import { parseScanTarget } from './scan-target-reference.js';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export interface ImageTarget {
  /** The reference as given, for messages. */
  label: string;
  repoUid: string;
  /** The digest the reference names: an index or an image manifest. */
  digest: string;
  /** The image manifest of the chosen platform; the digest itself for a single image. */
  imageDigest: string;
  /** The image's platform, "os/arch[/variant]" ("" when the image does not say). */
  platform: string;
}

/** Checks a reference and a --platform before anything is asked of the API. */
export function checkImageArguments(reference: string, platform: string | undefined): { name: string; reference: string; platform?: Platform } {
  const target = parseScanTarget(reference);
  return { ...target, platform: platform === undefined ? undefined : parsePlatform(platform) };
}

/** The digest a tag of the repo points to now (referrer, date and epoch tags included). */
export async function tagDigest(client: ApiClient, repoUid: string, label: string, tag: string): Promise<string> {
  const page = await client.call<{ tags?: { digest?: string }[] }>('GET', 'registry/v2/tags', {
    query: { 'uidp.children_of': repoUid, name: tag, include_referrers: 'true', include_dates: 'true', include_epochs: 'true', page_size: 1 },
  });
  const digest = page.tags?.[0]?.digest;
  if (!digest) throw new Error(`no tag named ${JSON.stringify(tag)} in ${label} (berth images tags list --repo ${label})`);
  return digest;
}

interface PlatformAnswer {
  platforms?: Array<{ architecture?: string; os?: string; variant?: string; digest?: string }>;
}

/**
 * Resolves `reference`; `platform` chooses among an index's images (default
 * linux/amd64). A single image is taken whatever its platform unless a
 * --platform was given that it does not run on.
 */
export async function resolveImageTarget(conn: Connection, reference: string, platform: string | undefined): Promise<ImageTarget> {
  const checked = checkImageArguments(reference, platform);
  const repo = await resolveRepo(conn, checked.name);
  const digest = DIGEST.test(checked.reference) ? checked.reference : await tagDigest(conn.client, repo.uid, repo.label, checked.reference);
  const answer = await conn.client.call<PlatformAnswer>('GET', `registry/v2/repos/${uidPath(repo.uid)}/digests/${encodeURIComponent(digest)}/platforms`);
  const offered = (answer.platforms ?? []).map((p) => ({
    os: p.os ?? '',
    architecture: p.architecture ?? '',
    variant: p.variant ?? '',
    digest: p.digest ?? '',
  }));
  const single = offered.length === 1 && offered[0].digest === digest;
  const chosen = pickPlatform(offered, checked.platform, single);
  if (!chosen) {
    const wanted = platform ?? 'linux/amd64';
    const list = offered.map(platformText).join(', ') || 'no platform images';
    throw new Error(`${reference} offers no ${wanted} image (it offers ${list}); choose one with --platform`);
  }
  return { label: reference, repoUid: repo.uid, digest, imageDigest: chosen.digest, platform: platformText(chosen) };
}

export function platformText(p: { os: string; architecture: string; variant: string }): string {
  if (p.architecture === '') return '';
  return [p.os || 'linux', p.architecture, ...(p.variant ? [p.variant] : [])].join('/');
}
