import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { transact } from '../../store/transact.js';
import { RepoSchema, type Repo, type UpdateRepoRequest } from '../../gen/berth/registry/v2/repos_pb.js';
import { nowIso } from '../../core/clock.js';
import { applyFields, fieldsToUpdate } from '../../core/field-mask.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badRegistryRequest, REGISTRY_DOMAIN, repoNameTaken } from '../errors.js';
import { loadRepoRow, repoFromRow, repoViolations } from './repo-row.js';

export async function updateRepo(deps: ServiceDeps, req: UpdateRepoRequest, ctx: HandlerContext): Promise<Repo> {
  const incoming = req.repo!; // the guard has checked repo.uid
  const fields = fieldsToUpdate(RepoSchema, incoming, req.updateMask, REGISTRY_DOMAIN);
  return transact(deps.store, async (tx) => {
    const row = await loadRepoRow(tx, incoming.uid);
    const merged = applyFields(RepoSchema, repoFromRow(row), incoming, fields);
    const bad = repoViolations(merged.name, merged.description);
    if (bad.length > 0) throw badRegistryRequest(bad.map((v) => ({ ...v, field: `repo.${v.field}` })));
    if (merged.name !== row.name) {
      const taken = await tx.selectFrom('repos').select('uid').where('parent_uid', '=', row.parent_uid).where('name', '=', merged.name).executeTakeFirst();
      if (taken) throw repoNameTaken(row.parent_uid, merged.name);
    }
    const next = { ...row, name: merged.name, description: merged.description, update_time: nowIso() };
    await tx.updateTable('repos').set({ name: next.name, description: next.description, update_time: next.update_time }).where('uid', '=', row.uid).execute();
    const repo = repoFromRow(next);
    await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: RepoSchema, message: repo });
    return repo;
  });
}
