import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { TermsAcceptanceSchema, type ListTermsAcceptancesRequest, type ListTermsAcceptancesResponse } from '../../gen/berth/iam/v2/terms_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import { ancestorsOf } from '../../core/uidp.js';
import { oneOf } from '../../list/conditions.js';
import { runList, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { TermsAcceptancesTable } from '../iam-tables.js';
import { groupNotFound, IAM_DOMAIN } from '../errors.js';

const SPEC: ListSpec = {
  table: 'terms_acceptances',
  domain: IAM_DOMAIN,
  columns: { created_at: 'create_time', doc_id: 'doc_id' },
  defaultOrder: { field: 'created_at', desc: false },
};

/** The acceptances of the group and of every group above it: terms an organization accepted hold for its groups. */
export async function listTermsAcceptances(deps: ServiceDeps, req: ListTermsAcceptancesRequest, ctx: HandlerContext): Promise<ListTermsAcceptancesResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const group = await deps.store.db.selectFrom('groups').select('uid').where('uid', '=', req.group).executeTakeFirst();
  if (!group) throw groupNotFound(req.group);
  const groups = [req.group, ...ancestorsOf(req.group)];
  const page = await runList<TermsAcceptancesTable>(
    deps,
    SPEC,
    req,
    { conditions: [oneOf('group_uid', groups)], key: { group: req.group } },
    'all',
    caller.tableVersions,
  );
  return {
    $typeName: 'berth.iam.v2.ListTermsAcceptancesResponse',
    termsAcceptances: page.rows.map((r) =>
      create(TermsAcceptanceSchema, { docId: r.doc_id, acceptedBy: r.accepted_by, orgUid: r.group_uid, createTime: isoToTimestamp(r.create_time) }),
    ),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}
