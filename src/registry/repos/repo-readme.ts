import type { GetRepoReadmeRequest, RepoReadme, UpdateRepoReadmeRequest } from '../../gen/berth/registry/v2/repos_pb.js';
import { nowIso } from '../../core/clock.js';
import type { ServiceDeps } from '../../store/service-deps.js';
import { badRegistryRequest, repoNotFound } from '../errors.js';
import { loadRepoRow } from './repo-row.js';

export const MAX_README_BYTES = 1024 * 1024;

export async function getRepoReadme(deps: ServiceDeps, req: GetRepoReadmeRequest): Promise<RepoReadme> {
  const row = await loadRepoRow(deps, req.uid);
  return { $typeName: 'berth.registry.v2.RepoReadme', uid: row.uid, content: row.readme };
}

export async function updateRepoReadme(deps: ServiceDeps, req: UpdateRepoReadmeRequest): Promise<RepoReadme> {
  const uid = req.repoReadme!.uid;
  const content = req.repoReadme!.content;
  if (Buffer.byteLength(content) > MAX_README_BYTES) {
    throw badRegistryRequest([{ field: 'repo_readme.content', description: `content must be at most ${MAX_README_BYTES} bytes` }]);
  }
  const mask = req.updateMask?.paths ?? [];
  const changes = mask.length === 0 || mask.includes('content') || mask.includes('*');
  if (changes) {
    const res = await deps.store.db.updateTable('repos').set({ readme: content, update_time: nowIso() }).where('uid', '=', uid).executeTakeFirst();
    if (res.numUpdatedRows === 0n) throw repoNotFound(uid);
  }
  return getRepoReadme(deps, { $typeName: 'berth.registry.v2.GetRepoReadmeRequest', uid });
}
