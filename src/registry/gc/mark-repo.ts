// Mark: what in one repo nothing references, read from the database without
// locks (the sweep re-checks every deletion under the repo's content lock,
// so a change made after this read is never overridden by it).
//
// - With deleteUntagged, a manifest is live when a tag points at it, when it
//   was pushed within the grace, when a live index lists it, or when its
//   subject is a live manifest (signatures, SBOMs and other referrers of a
//   live image stay) — transitively. The others are to be deleted. Without
//   deleteUntagged every manifest is kept.
// - A blob link is dead when no kept manifest of the repo lists the blob
//   (as config or layer) and it was pushed before the grace.
// Manifests and links are per repo: nothing in one repo keeps another's alive.
import type { Executor } from '../../store/transact.js';
import { orderForDeletion } from './deletion-order.js';

export interface RepoPlan {
  /** Manifests to delete, an index before what it lists and a subject before its referrers (where such an order exists). */
  manifests: string[];
  /** Blobs whose link to the repo is dead once those manifests are gone. */
  links: string[];
}

const PAGE = 5000;

interface ManifestNode {
  subject: string | null;
  young: boolean;
}

async function loadManifests(ex: Executor, repoUid: string, cutoffIso: string): Promise<Map<string, ManifestNode>> {
  const out = new Map<string, ManifestNode>();
  for (let after = ''; ; ) {
    const rows = await ex
      .selectFrom('manifests')
      .select(['digest', 'subject_digest', 'push_time'])
      .where('repo_uid', '=', repoUid)
      .where('digest', '>', after)
      .orderBy('digest')
      .limit(PAGE)
      .execute();
    for (const r of rows) out.set(r.digest, { subject: r.subject_digest, young: r.push_time >= cutoffIso });
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1].digest;
  }
}

async function taggedDigests(ex: Executor, repoUid: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (let after = ''; ; ) {
    const rows = await ex
      .selectFrom('tags')
      .select(['name', 'digest'])
      .where('parent_uid', '=', repoUid)
      .where('name', '>', after)
      .orderBy('name')
      .limit(PAGE)
      .execute();
    for (const r of rows) out.add(r.digest);
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1].name;
  }
}

/** Every (manifest, child) the repo's manifests list, of one kind, page by page. */
async function* references(ex: Executor, repoUid: string, kind: 'blob' | 'manifest'): AsyncIterable<{ manifest: string; child: string }> {
  for (let after = { manifest: '', position: -1 }; ; ) {
    const rows = await ex
      .selectFrom('manifest_refs')
      .select(['manifest_digest', 'position', 'child_digest'])
      .where('repo_uid', '=', repoUid)
      .where('kind', '=', kind)
      .where((eb) =>
        eb.or([eb('manifest_digest', '>', after.manifest), eb.and([eb('manifest_digest', '=', after.manifest), eb('position', '>', after.position)])]),
      )
      .orderBy('manifest_digest')
      .orderBy('position')
      .limit(PAGE)
      .execute();
    for (const r of rows) yield { manifest: r.manifest_digest, child: r.child_digest };
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    after = { manifest: last.manifest_digest, position: last.position };
  }
}

/** The repo's untagged manifests nothing live reaches, in deletion order. */
async function deadManifests(ex: Executor, repoUid: string, cutoffIso: string): Promise<string[]> {
  const nodes = await loadManifests(ex, repoUid, cutoffIso);
  const children = new Map<string, string[]>();
  for await (const r of references(ex, repoUid, 'manifest')) children.set(r.manifest, [...(children.get(r.manifest) ?? []), r.child]);
  const referrers = new Map<string, string[]>();
  for (const [digest, n] of nodes) if (n.subject !== null) referrers.set(n.subject, [...(referrers.get(n.subject) ?? []), digest]);

  const live = new Set<string>();
  const queue: string[] = [];
  const reach = (digest: string) => {
    if (nodes.has(digest) && !live.has(digest)) {
      live.add(digest);
      queue.push(digest);
    }
  };
  for (const d of await taggedDigests(ex, repoUid)) reach(d);
  for (const [d, n] of nodes) if (n.young) reach(d);
  while (queue.length > 0) {
    const d = queue.pop() as string;
    for (const c of children.get(d) ?? []) reach(c);
    for (const r of referrers.get(d) ?? []) reach(r);
  }
  const dead = new Set([...nodes.keys()].filter((d) => !live.has(d)));
  return orderForDeletion(dead, children, referrers);
}

export async function markRepo(ex: Executor, repoUid: string, cutoffIso: string, deleteUntagged: boolean): Promise<RepoPlan> {
  const manifests = deleteUntagged ? await deadManifests(ex, repoUid, cutoffIso) : [];
  const going = new Set(manifests);
  const listed = new Set<string>();
  for await (const r of references(ex, repoUid, 'blob')) if (!going.has(r.manifest)) listed.add(r.child);
  const links: string[] = [];
  for (let after = ''; ; ) {
    const rows = await ex
      .selectFrom('repo_blobs')
      .select(['digest', 'push_time'])
      .where('repo_uid', '=', repoUid)
      .where('digest', '>', after)
      .orderBy('digest')
      .limit(PAGE)
      .execute();
    for (const r of rows) if (r.push_time < cutoffIso && !listed.has(r.digest)) links.push(r.digest);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].digest;
  }
  return { manifests, links };
}
