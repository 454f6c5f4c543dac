// The event of a repo a push created on the spot (repo-for-route.ts): the same
// repo.created a CreateRepo call writes — type and audience are what
// ReposService.CreateRepo declares — with the pushing identity as its actor.
import { EventAttributes_Audience } from '../gen/berth/annotations/v1/annotations_pb.js';
import { RepoSchema, ReposService } from '../gen/berth/registry/v2/repos_pb.js';
import { emitEvent } from '../events/outbox.js';
import { eventOfMethod } from '../events/rpc-event.js';
import { repoFromRow, type RepoRow } from '../registry/repos/repo-row.js';
import { messageToJson } from '../server/rest/json-writer.js';
import type { Tx } from '../store/transact.js';

const CREATED = eventOfMethod(ReposService.method.createRepo);

/** Writes repo.created for `row` inside `tx`; `actor` "" for none. */
export async function pushedRepoEvent(tx: Tx, row: RepoRow, actor: string): Promise<void> {
  await emitEvent(tx, {
    type: CREATED.type,
    audience: CREATED.audience === EventAttributes_Audience.CUSTOMER ? 'customer' : 'internal',
    group: row.parent_uid,
    subject: row.uid,
    actor: actor === '' ? undefined : actor,
    body: messageToJson(RepoSchema, repoFromRow(row)),
    bodyType: RepoSchema.typeName,
    extensions: CREATED.extensions.includes('group') ? { group: row.parent_uid } : {},
  });
}
