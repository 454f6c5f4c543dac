// The data of `berth images history`: a tag named ORG/IMAGE:TAG resolved
// through the API (organization by name among root groups, repo by name in
// it, tag by name in the repo), its history (v1 ListTagHistory, oldest first,
// at most 1000 records), and for each digest the images it offers with their
// own digests and sizes (the Images API's GetPlatforms, once per digest).
import { ApiCallError, uidPath, type ApiClient } from './api-client.js';
import type { ImageReference } from './image-reference.js';

export interface TagTarget {
  orgUid: string;
  repoUid: string;
  tagUid: string;
}

export interface HistoryPlatform {
  architecture: string;
  os: string;
  variant: string;
  /** The platform image's manifest digest. */
  digest: string;
  /** Config plus layers, in bytes. */
  size: number;
}

export interface HistoryRecord {
  updateTimestamp: string;
  digest: string;
  /** False when the repo no longer holds the manifest (it was deleted since). */
  held: boolean;
  platforms: HistoryPlatform[];
}

/** Requests in flight at once for the per-digest reads. */
const CONCURRENCY = 4;

async function firstUid(client: ApiClient, path: string, key: string, query: Record<string, string>): Promise<string | undefined> {
  const page = await client.call<Record<string, Array<{ uid: string }> | undefined>>('GET', path, { query: { ...query, page_size: 1 } });
  return page[key]?.[0]?.uid;
}

/** The uids behind ORG/IMAGE:TAG; an Error naming the first part that is missing (or not visible to the caller). */
export async function resolveTag(client: ApiClient, ref: ImageReference): Promise<TagTarget> {
  const orgUid = await firstUid(client, 'iam/v2/groups', 'groups', { 'uidp.in_root': 'true', name: ref.org });
  if (!orgUid) throw new Error(`no organization named ${JSON.stringify(ref.org)} that you may see`);
  const repoUid = await firstUid(client, 'registry/v2/repos', 'repos', { 'uidp.children_of': orgUid, name: ref.image });
  if (!repoUid) throw new Error(`no image ${JSON.stringify(ref.image)} in ${ref.org} that you may see`);
  // Referrer, date and epoch tags are hidden from lists unless asked for.
  const tagUid = await firstUid(client, 'registry/v2/tags', 'tags', {
    'uidp.children_of': repoUid,
    name: ref.tag,
    include_referrers: 'true',
    include_dates: 'true',
    include_epochs: 'true',
  });
  if (!tagUid) throw new Error(`${ref.org}/${ref.image} has no tag ${JSON.stringify(ref.tag)}`);
  return { orgUid, repoUid, tagUid };
}

async function platformsOf(client: ApiClient, repoUid: string, digest: string): Promise<HistoryPlatform[] | undefined> {
  try {
    const body = await client.call<{ platforms?: Array<Omit<HistoryPlatform, 'size'> & { size?: string }> }>(
      'GET',
      `registry/v2/repos/${uidPath(repoUid)}/digests/${encodeURIComponent(digest)}/platforms`,
    );
    return (body.platforms ?? []).map((p) => ({
      architecture: p.architecture ?? '',
      os: p.os ?? '',
      variant: p.variant ?? '',
      digest: p.digest ?? '',
      size: Number(p.size ?? 0),
    }));
  } catch (err) {
    if (err instanceof ApiCallError && err.status === 404) return undefined;
    throw err;
  }
}

/** The tag's history, oldest first, each digest with the images it offers. */
export async function tagHistory(client: ApiClient, target: TagTarget, window: { start?: string; end?: string } = {}): Promise<HistoryRecord[]> {
  const { items = [] } = await client.call<{ items?: Array<{ updateTimestamp: string; digest: string }> }>(
    'GET',
    `registry/v1/tags/${uidPath(target.tagUid)}/history`,
    { query: window },
  );
  const digests = [...new Set(items.map((i) => i.digest))];
  const platforms = new Map<string, HistoryPlatform[] | undefined>();
  let next = 0;
  const worker = async () => {
    while (next < digests.length) {
      const digest = digests[next++];
      platforms.set(digest, await platformsOf(client, target.repoUid, digest));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, digests.length) }, worker));
  return items.map((i) => {
    const p = platforms.get(i.digest);
    return { updateTimestamp: i.updateTimestamp, digest: i.digest, held: p !== undefined, platforms: p ?? [] };
  });
}
