import type { DescMethod } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { transact, type Tx } from '../../store/transact.js';
import { RepoSchema, type Repo, type UpdateRepoRequest } from '../../gen/berth/registry/v2/repos_pb.js';
import { nowIso } from '../../core/clock.js';
import { applyFields, fieldsToUpdate } from '../../core/field-mask.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badRegistryRequest, REGISTRY_DOMAIN, repoNameTaken } from '../errors.js';
import { loadRepoRow, repoFromRow, repoViolations, type RepoRow } from './repo-row.js';

/** A repo's writable fields after an update; the readme only when the call writes it (v1). */
export interface RepoChange {
  name: string;
  description: string;
  readme?: string;
}

/**
 * Validates `change` and writes it over the stored `row` inside `tx`, with
 * the repo.updated event (the one `method` declares; the call's own by
 * default). Every update of a repo's fields, v2 PATCH and v1 PUT, ends here.
 */
export async function writeRepoChange(tx: Tx, ctx: HandlerContext, row: RepoRow, change: RepoChange, method?: DescMethod): Promise<RepoRow> {
  const bad = repoViolations(change.name, change.description, change.readme);
  if (bad.length > 0) throw badRegistryRequest(bad.map((v) => ({ ...v, field: `repo.${v.field}` })));
  if (change.name !== row.name) {
    const taken = await tx.selectFrom('repos').select('uid').where('parent_uid', '=', row.parent_uid).where('name', '=', change.name).executeTakeFirst();
    if (taken) throw repoNameTaken(row.parent_uid, change.name);
  }
  const next = { ...row, name: change.name, description: change.description, update_time: nowIso() };
  const readme = change.readme === undefined ? {} : { readme: change.readme };
  await tx
    .updateTable('repos')
    .set({ name: next.name, description: next.description, update_time: next.update_time, ...readme })
    .where('uid', '=', row.uid)
    .execute();
  await emitRpcEvent(tx, ctx, { group: row.parent_uid, subject: row.uid, schema: RepoSchema, message: repoFromRow(next) }, method);
  return next;
}

export async function updateRepo(deps: ServiceDeps, req: UpdateRepoRequest, ctx: HandlerContext): Promise<Repo> {
  const incoming = req.repo!; // the guard has checked repo.uid
  const fields = fieldsToUpdate(RepoSchema, incoming, req.updateMask, REGISTRY_DOMAIN);
  return transact(deps.store, async (tx) => {
    const row = await loadRepoRow(tx, incoming.uid);
    const merged = applyFields(RepoSchema, repoFromRow(row), incoming, fields);
    return repoFromRow(await writeRepoChange(tx, ctx, row, { name: merged.name, description: merged.description }));
  });
}
