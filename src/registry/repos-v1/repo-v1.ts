// A repo as the v1 API shows it: id, name, description, readme, create_time.
import { isoToTimestamp } from '../../core/clock.js';
import type { Repo } from '../../gen/berth/registry/v1/registry_pb.js';
import type { Repo as RepoV2 } from '../../gen/berth/registry/v2/repos_pb.js';
import type { RepoRow } from '../repos/repo-row.js';

export function v1RepoFromRow(row: RepoRow, readme = ''): Repo {
  return {
    $typeName: 'berth.registry.v1.Repo',
    id: row.uid,
    name: row.name,
    readme,
    createTime: isoToTimestamp(row.create_time),
    description: row.description,
  };
}

/** The v2 list's repo in the v1 shape. */
export function v1RepoFromV2(repo: RepoV2, readme = ''): Repo {
  return { $typeName: 'berth.registry.v1.Repo', id: repo.uid, name: repo.name, readme, createTime: repo.createTime, description: repo.description };
}
