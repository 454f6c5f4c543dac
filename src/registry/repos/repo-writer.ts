// The one function that inserts a repo. CreateRepo (after the guard's
// permission check) and a push to a repo that does not exist yet (after
// authorizeRepo checked repo.create) end here, so every stored repo passed the
// same name and description rules, and its repo.created event — one type,
// audience and body whichever way the repo came to be — commits with the row.
//
// No read before the insert: the foreign key says the group is missing and
// the unique index that the name is taken (on PostgreSQL two round trips of a
// create's seven went to asking first). A failed insert ends the transaction,
// which is what either answer does anyway.
import type { HandlerContext } from '@connectrpc/connect';
import { RepoSchema, ReposService } from '../../gen/berth/registry/v2/repos_pb.js';
import { emitDeclaredEvent, emitRpcEvent, type RpcEvent } from '../../events/rpc-event.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import { insertCompiled } from '../../store/compiled-queries.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/constraint-error.js';
import type { Tx } from '../../store/transact.js';
import { badRegistryRequest, parentGroupNotFound, repoNameTaken } from '../errors.js';
import { repoFromRow, repoViolations, type RepoRow } from './repo-row.js';

export interface NewRepo {
  /** The group it belongs to. */
  parent: string;
  name: string;
  description: string;
  /** Markdown (v1 creates a repo with its readme); empty when absent. */
  readme?: string;
}

/** Who writes the repo, the actor of its event: the CreateRepo call's caller, or the pushing identity ("" for none) and its address. */
export type RepoAuthor = { ctx: HandlerContext } | { pushedBy: string; from?: string };

/**
 * Validates and inserts the repo inside `tx`, with its event; the row as
 * stored (without the readme). Throws repoNameTaken when the group has a
 * repo of that name, parentGroupNotFound when the group does not exist.
 */
export async function writeRepo(tx: Tx, r: NewRepo, by: RepoAuthor): Promise<RepoRow> {
  const bad = repoViolations(r.name, r.description, r.readme);
  if (bad.length > 0) throw badRegistryRequest(bad.map((v) => ({ ...v, field: `repo.${v.field}` })));
  const now = nowIso();
  const row: RepoRow = { uid: newChildUid(r.parent), parent_uid: r.parent, name: r.name, description: r.description, create_time: now, update_time: now };
  try {
    await insertCompiled(tx, 'repos', { ...row, readme: r.readme ?? '' });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw parentGroupNotFound(r.parent);
    if (isUniqueViolation(err)) throw repoNameTaken(r.parent, r.name);
    throw err;
  }
  const event: RpcEvent<typeof RepoSchema> = { group: r.parent, subject: row.uid, schema: RepoSchema, message: repoFromRow(row) };
  if ('ctx' in by) await emitRpcEvent(tx, by.ctx, event);
  else
    await emitDeclaredEvent(tx, ReposService.method.createRepo, { ...event, actor: by.pushedBy, audit: { action: 'registry.push', address: by.from ?? '' } });
  return row;
}
