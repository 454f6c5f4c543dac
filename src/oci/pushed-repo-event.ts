// The event of a repo a push created on the spot (repo-for-route.ts): the same
// repo.created a CreateRepo call writes (ReposService.CreateRepo's type,
// audience and body), with the pushing identity as its actor.
import { RepoSchema, ReposService } from '../gen/berth/registry/v2/repos_pb.js';
import { emitDeclaredEvent } from '../events/rpc-event.js';
import { repoFromRow, type RepoRow } from '../registry/repos/repo-row.js';
import type { Tx } from '../store/transact.js';

/** Writes repo.created for `row` inside `tx`; `actor` "" for none. */
export async function pushedRepoEvent(tx: Tx, row: RepoRow, actor: string): Promise<void> {
  await emitDeclaredEvent(tx, ReposService.method.createRepo, {
    group: row.parent_uid,
    subject: row.uid,
    actor,
    schema: RepoSchema,
    message: repoFromRow(row),
  });
}
