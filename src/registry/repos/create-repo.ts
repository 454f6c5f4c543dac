import { transact } from '../../store/transact.js';
import { insertCompiled } from '../../store/compiled-queries.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/constraint-error.js';
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { RepoSchema, type CreateRepoRequest, type Repo } from '../../gen/berth/registry/v2/repos_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badRegistryRequest, parentGroupNotFound, repoNameTaken } from '../errors.js';
import { repoNameViolation } from '../names.js';
import { MAX_DESCRIPTION, repoFromRow } from './repo-row.js';

export function repoViolations(name: string, description: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  const n = repoNameViolation(name);
  if (n) out.push(n);
  if (description.length > MAX_DESCRIPTION) out.push({ field: 'description', description: `description must be at most ${MAX_DESCRIPTION} characters` });
  return out;
}

export async function createRepo(deps: ServiceDeps, req: CreateRepoRequest, ctx: HandlerContext): Promise<Repo> {
  const name = req.repo?.name ?? '';
  const description = req.repo?.description ?? '';
  const bad = repoViolations(name, description);
  if (bad.length > 0) throw badRegistryRequest(bad.map((v) => ({ ...v, field: `repo.${v.field}` })));
  const now = nowIso();
  const row = { uid: newChildUid(req.parent), parent_uid: req.parent, name, description, readme: '', create_time: now, update_time: now };
  // No read before the insert: the foreign key says the group is missing and
  // the unique index that the name is taken (on PostgreSQL two round trips of
  // a create's seven went to asking first). A failed insert ends the
  // transaction, which is what either answer does anyway.
  try {
    await transact(deps.store, async (tx) => {
      await insertCompiled(tx, 'repos', row);
      await emitRpcEvent(tx, ctx, { group: req.parent, subject: row.uid, schema: RepoSchema, message: repoFromRow(row) });
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw parentGroupNotFound(req.parent);
    if (isUniqueViolation(err)) throw repoNameTaken(req.parent, name);
    throw err;
  }
  return repoFromRow(row);
}
