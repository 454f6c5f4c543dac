// Repositories and tags named on the command line the way people name them:
// as the registry does (ORG/REPO, ORG/REPO:TAG, as docker pull takes them), by
// name within a group (--parent, default the organization of the
// credentials), or by uid. Names go through the one resolver of
// name-resolution.ts, scoped to the parent, whose errors say what was looked
// for and where ("no repo named "x" in example.com").
import { parentOrOrg, type Connection } from './api-client.js';
import { parseImageReference } from './image-reference.js';
import { GROUP, isUid, resolveName, type NamedKind } from './name-resolution.js';

const ORGANIZATION: NamedKind = { ...GROUP, label: 'organization', listCommand: '' };
export const REPO: NamedKind = { label: 'repo', path: 'registry/v2/repos', itemsKey: 'repos', listCommand: 'berth images repos list' };
export const TAG: NamedKind = { label: 'tag', path: 'registry/v2/tags', itemsKey: 'tags', listCommand: 'berth images tags list --repo ORG/REPO' };

// Referrer, date and epoch tags are hidden from lists unless asked for; a name may be one of them.
const EVERY_TAG = { include_referrers: 'true', include_dates: 'true', include_epochs: 'true' };

export interface RepoTarget {
  uid: string;
  /** How messages name it: ORG/REPO, or the uid. */
  label: string;
}

/**
 * A repo given as a uid, ORG/REPO (when no `parent` is given; REPO may hold
 * "/"), or a name in `parent` (a group uid or name; default: the
 * credentials' organization).
 */
export async function resolveRepo(conn: Connection, value: string, parent?: string): Promise<RepoTarget> {
  if (isUid(value)) return { uid: value, label: value };
  let parentUid: string;
  let parentLabel: string;
  let name = value;
  if (parent !== undefined) {
    parentUid = await resolveName(conn.client, GROUP, parent);
    parentLabel = parent;
  } else if (value.includes('/')) {
    const slash = value.indexOf('/');
    parentLabel = value.slice(0, slash);
    name = value.slice(slash + 1);
    parentUid = await resolveName(conn.client, ORGANIZATION, parentLabel, { query: { 'uidp.in_root': 'true' } });
  } else {
    parentUid = parentOrOrg(conn, undefined);
    parentLabel = conn.orgName ?? parentUid;
  }
  const uid = await resolveName(conn.client, REPO, name, { query: { 'uidp.children_of': parentUid }, label: parentLabel });
  return { uid, label: `${parentLabel}/${name}` };
}

export interface TagTarget {
  repoUid: string;
  tagUid: string;
}

/**
 * A tag given as a uid, as ORG/REPO:TAG (the tag defaults to "latest"), or
 * as a tag name in `repo` (which resolveRepo reads).
 */
export async function resolveTag(conn: Connection, value: string, repo?: string, parent?: string): Promise<TagTarget> {
  if (isUid(value)) return { repoUid: value.slice(0, value.lastIndexOf('/')), tagUid: value };
  let target: RepoTarget;
  let name = value;
  if (repo !== undefined) target = await resolveRepo(conn, repo, parent);
  else {
    const ref = parseImageReference(value);
    target = await resolveRepo(conn, `${ref.org}/${ref.image}`);
    name = ref.tag;
  }
  const tagUid = await resolveName(conn.client, TAG, name, { query: { 'uidp.children_of': target.uid, ...EVERY_TAG }, label: target.label });
  return { repoUid: target.uid, tagUid };
}
