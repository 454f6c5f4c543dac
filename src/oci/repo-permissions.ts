// Which registry actions a caller may take on a repository, from its CURRENT
// grants through the same Caller/Grants the API authorizes with. Capabilities
// are checked at the repo's uid, or at its organization's when the repo does
// not exist yet (pushing then creates it, so push also needs repo.create).
// Anyone may pull from the public organization, but without pull rights there
// only the free-tier tags. Never more than was asked for.
import type { Caller } from '../auth/caller.js';
import { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';
import { FREE_TIER_TAGS } from './registry-config.js';
import type { RepoTarget } from './repo-target.js';
import type { RepoAction } from './token-scope.js';

const PULL = [Capability.CAP_REPO_BLOBS_GET, Capability.CAP_MANIFEST_LIST, Capability.CAP_TAG_LIST];
const PUSH = [...PULL, Capability.CAP_MANIFEST_CREATE, Capability.CAP_MANIFEST_UPDATE, Capability.CAP_TAG_CREATE, Capability.CAP_TAG_UPDATE];
const DELETE = [Capability.CAP_MANIFEST_DELETE, Capability.CAP_TAG_DELETE];

/** The capabilities each action needs (push on a repo that does not exist yet also needs repo.create). */
export const ACTION_CAPABILITIES: Readonly<Record<RepoAction, readonly Capability[]>> = { pull: PULL, push: PUSH, delete: DELETE };

export interface RepoGrant {
  /** Granted actions, a subset of the requested ones, in pull/push/delete order. */
  actions: RepoAction[];
  /** When set, pull reaches only these tags (and the content they point to): anonymous-style access to the public organization. */
  pullTags?: readonly string[];
}

/** The subset of `requested` the caller holds on `target` right now. */
export async function grantedRepoActions(caller: Caller, target: RepoTarget, requested: readonly RepoAction[], publicOrg: string): Promise<RepoGrant> {
  const grants = await caller.loadGrants();
  const at = target.repoUid ?? target.orgUid;
  const holds = (action: RepoAction): boolean => {
    if (at === undefined || target.path === '') return false;
    const caps = target.repoUid === undefined && action === 'push' ? [...PUSH, Capability.CAP_REPO_CREATE] : ACTION_CAPABILITIES[action];
    return caps.every((c) => grants.has(c, at));
  };
  const actions: RepoAction[] = [];
  let pullTags: readonly string[] | undefined;
  for (const action of ['pull', 'push', 'delete'] as const) {
    if (!requested.includes(action)) continue;
    if (holds(action)) actions.push(action);
    else if (action === 'pull' && target.orgName === publicOrg && target.path !== '') {
      actions.push('pull');
      pullTags = FREE_TIER_TAGS;
    }
  }
  return pullTags ? { actions, pullTags } : { actions };
}
