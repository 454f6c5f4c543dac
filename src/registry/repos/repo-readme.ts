import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { RepoReadmeSchema, type GetRepoReadmeRequest, type RepoReadme, type UpdateRepoReadmeRequest } from '../../gen/berth/registry/v2/repos_pb.js';
import { fieldsToUpdate } from '../../core/field-mask.js';
import { nowIso } from '../../core/clock.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badRegistryRequest, REGISTRY_DOMAIN, repoNotFound } from '../errors.js';

export const MAX_README_BYTES = 1024 * 1024;

export async function getRepoReadme(deps: ServiceDeps, req: GetRepoReadmeRequest): Promise<RepoReadme> {
  const row = await deps.store.db.selectFrom('repos').select(['uid', 'readme']).where('uid', '=', req.uid).executeTakeFirst();
  if (!row) throw repoNotFound(req.uid);
  return { $typeName: 'berth.registry.v2.RepoReadme', uid: row.uid, content: row.readme };
}

/** A change of the README is a change of the repo: the event is repo.updated, its body the README written. */
export async function updateRepoReadme(deps: ServiceDeps, req: UpdateRepoReadmeRequest, ctx: HandlerContext): Promise<RepoReadme> {
  const uid = req.repoReadme!.uid;
  const content = req.repoReadme!.content;
  if (Buffer.byteLength(content) > MAX_README_BYTES) {
    throw badRegistryRequest([{ field: 'repo_readme.content', description: `content must be at most ${MAX_README_BYTES} bytes` }]);
  }
  // The shared mask rules: without a mask the fields sent change; unknown paths are rejected.
  const fields = fieldsToUpdate(RepoReadmeSchema, req.repoReadme!, req.updateMask, REGISTRY_DOMAIN);
  const changes = fields.some((f) => f.name === 'content');
  if (!changes) return getRepoReadme(deps, { $typeName: 'berth.registry.v2.GetRepoReadmeRequest', uid });
  const readme: RepoReadme = { $typeName: 'berth.registry.v2.RepoReadme', uid, content }; // what is written; no second read
  await transact(deps.store, async (tx) => {
    const res = await tx.updateTable('repos').set({ readme: content, update_time: nowIso() }).where('uid', '=', uid).executeTakeFirst();
    if (res.numUpdatedRows === 0n) throw repoNotFound(uid);
    await emitRpcEvent(tx, ctx, { group: parentOf(uid), subject: uid, schema: RepoReadmeSchema, message: readme });
  });
  return readme;
}
