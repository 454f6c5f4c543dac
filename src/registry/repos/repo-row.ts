import type { Repo } from '../../gen/berth/registry/v2/repos_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/database.js';
import type { ReposTable } from '../registry-tables.js';
import { repoNotFound } from '../errors.js';
import { repoNameViolation } from '../names.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import { MAX_README_BYTES } from './repo-readme.js';

const REPO_BY_UID = compiledQuery('repo by uid');

/** A repo as responses show it: the readme (up to 1 MiB) has its own RPC. */
export type RepoRow = Omit<ReposTable, 'readme'>;
export const REPO_COLUMNS = ['uid', 'parent_uid', 'name', 'description', 'create_time', 'update_time'] as const;

// A literal with every field, in field order: what create(RepoSchema, …)
// returns, without its per-field walk (100 per listed page).
export function repoFromRow(row: RepoRow): Repo {
  return {
    $typeName: 'berth.registry.v2.Repo',
    uid: row.uid,
    name: row.name,
    description: row.description,
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
  };
}

export async function loadRepoRow(db: Kysely<Database>, uid: string): Promise<RepoRow> {
  const [row] = await runCompiled<RepoRow>(db, REPO_BY_UID, [uid], ([u]) =>
    db
      .selectFrom('repos')
      .select(REPO_COLUMNS)
      .where('uid', '=', u as string),
  );
  if (!row) throw repoNotFound(uid);
  return row;
}

export const MAX_DESCRIPTION = 255;

/** Violations of a repo's writable fields, named as in the Repo message (the readme only where it is written with them, in v1). */
export function repoViolations(name: string, description: string, readme = ''): FieldViolation[] {
  const out: FieldViolation[] = [];
  const n = repoNameViolation(name);
  if (n) out.push(n);
  if (description.length > MAX_DESCRIPTION) out.push({ field: 'description', description: `description must be at most ${MAX_DESCRIPTION} characters` });
  if (Buffer.byteLength(readme) > MAX_README_BYTES) out.push({ field: 'readme', description: `readme must be at most ${MAX_README_BYTES} bytes` });
  return out;
}
