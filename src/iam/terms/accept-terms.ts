import type { HandlerContext } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { AcceptTermsResponseSchema, type AcceptTermsRequest, type AcceptTermsResponse } from '../../gen/berth/iam/v2/terms_pb.js';
import { callerOf } from '../../auth/caller.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, groupNotFound, IAM_DOMAIN } from '../errors.js';

const MAX_DOCUMENT_IDS = 100;

/** The requested ids, once each, all of them documents this server offers. */
function documentIds(req: AcceptTermsRequest, offered: ReadonlySet<string>): string[] {
  const bad: FieldViolation[] = [];
  if (req.documentIds.length === 0) bad.push({ field: 'document_ids', description: 'at least one document id is required' });
  else if (req.documentIds.length > MAX_DOCUMENT_IDS) bad.push({ field: 'document_ids', description: `at most ${MAX_DOCUMENT_IDS} document ids` });
  else if (offered.size === 0) bad.push({ field: 'document_ids', description: 'this server offers no terms documents (berth serve --terms-file)' });
  else
    req.documentIds.forEach((id, i) => {
      if (!offered.has(id)) {
        bad.push({ field: `document_ids[${i}]`, description: `unknown document ${JSON.stringify(id.slice(0, 64))}; offered: ${[...offered].join(', ')}` });
      }
    });
  if (bad.length > 0) throw badIamRequest(bad);
  return [...new Set(req.documentIds)];
}

/**
 * Records who accepted which documents for the group, when; a document
 * accepted before keeps its first record. The event says who accepted what,
 * every time: an acceptance is an act of the caller even when it repeats one.
 */
export async function acceptTerms(deps: ServiceDeps, req: AcceptTermsRequest, ctx: HandlerContext): Promise<AcceptTermsResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const ids = documentIds(req, new Set(deps.termsDocuments.map((d) => d.id)));
  return transact(deps.store, async (tx) => {
    const group = await tx.selectFrom('groups').select('uid').where('uid', '=', req.group).executeTakeFirst();
    if (!group) throw groupNotFound(req.group);
    const now = nowIso();
    const rows = ids.map((doc_id) => ({
      uid: newChildUid(req.group),
      group_uid: req.group,
      doc_id,
      accepted_by: caller.identityUid,
      create_time: now,
      update_time: now,
    }));
    await tx
      .insertInto('terms_acceptances')
      .values(rows)
      .onConflict((oc) => oc.columns(['group_uid', 'doc_id']).doNothing())
      .execute();
    const res = create(AcceptTermsResponseSchema, { group: req.group, documentIds: ids });
    await emitRpcEvent(tx, ctx, { group: req.group, subject: req.group, schema: AcceptTermsResponseSchema, message: res });
    return res;
  });
}
