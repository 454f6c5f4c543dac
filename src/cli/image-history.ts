// The data of `berth images history`: a tag's history (v1 ListTagHistory,
// oldest first, at most 1000 records; the tag resolved by image-names.ts),
// and for each digest the images it offers with their own digests and sizes
// (the Images API's GetPlatforms, once per digest).
import { ApiCallError, uidPath, type ApiClient } from './api-client.js';
import type { TagTarget } from './image-names.js';

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
