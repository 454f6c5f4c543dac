import { create } from '@bufbuild/protobuf';
import { RepoSchema, type Repo } from '../../gen/berth/registry/v2/repos_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { ReposTable } from '../../store/schema.js';
import type { ServiceDeps } from '../../store/service-deps.js';
import { repoNotFound } from '../errors.js';

export function repoFromRow(row: Omit<ReposTable, 'readme'>): Repo {
  return create(RepoSchema, {
    uid: row.uid,
    name: row.name,
    description: row.description,
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
  });
}

export async function loadRepoRow(deps: ServiceDeps, uid: string): Promise<ReposTable> {
  const row = await deps.store.db.selectFrom('repos').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (!row) throw repoNotFound(uid);
  return row;
}

export const MAX_DESCRIPTION = 255;
