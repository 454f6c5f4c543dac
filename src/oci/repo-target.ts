// What a registry repository name refers to: `<org>/<path>` is the repo named
// <path> whose parent is the root group (organization) named <org>. Resolved
// in one read (built and compiled once: it runs on every registry request);
// the caller decides what a missing org or repo means, and only after it has
// checked permission (so the answer never reveals existence).
import '../iam/iam-tables.js';
import '../registry/registry-tables.js';
import { compiledQuery, runCompiled } from '../store/compiled-queries.js';
import type { Executor } from '../store/transact.js';

const REPO_TARGET = compiledQuery('registry repo target');

export interface RepoTarget {
  /** The full repository name, `<org>/<path>`. */
  name: string;
  orgName: string;
  /** The repo's name inside the organization ("" when the name has one component). */
  path: string;
  /** The organization's uid; undefined when no root group has that name. */
  orgUid?: string;
  /** The repo's uid; undefined when the organization holds no repo of that name. */
  repoUid?: string;
}

/** Splits a (grammar-checked) repository name and looks its organization and repo up. */
export async function resolveRepoTarget(db: Executor, name: string): Promise<RepoTarget> {
  const slash = name.indexOf('/');
  const orgName = slash < 0 ? name : name.slice(0, slash);
  const path = slash < 0 ? '' : name.slice(slash + 1);
  const [row] = await runCompiled<{ org_uid: string; repo_uid: string | null }>(db, REPO_TARGET, [orgName, path], ([org, repo]) =>
    db
      .selectFrom('groups as g')
      .leftJoin('repos as r', (j) => j.onRef('r.parent_uid', '=', 'g.uid').on('r.name', '=', repo as string))
      .select(['g.uid as org_uid', 'r.uid as repo_uid'])
      .where('g.parent_uid', 'is', null)
      .where('g.name', '=', org as string),
  );
  return { name, orgName, path, orgUid: row?.org_uid, repoUid: row?.repo_uid ?? undefined };
}
