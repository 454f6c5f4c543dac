// v1 List: every subscription the caller may list, filtered by `id` and
// uidp, in uid order, in one answer (v1 has no paging). It walks the v2
// list's pages up to a bound; past it the caller is told to narrow the list
// or use v2, rather than given a silently cut list.
import type { HandlerContext } from '@connectrpc/connect';
import type { SubscriptionFilter, SubscriptionList } from '../../gen/berth/events/v1/subscriptions_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { MAX_PAGE_SIZE } from '../../list/list-params.js';
import { isValidUid } from '../../core/uidp.js';
import { equal, type Condition } from '../../list/conditions.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { tooManySubscriptionsForV1 } from '../errors.js';
import { subscriptionsPage } from '../subscriptions/list-subscriptions.js';
import { v1SubscriptionFromRow } from './subscription-v1.js';

export const MAX_V1_ITEMS = 1000;

export async function listSubscriptionsV1(deps: ServiceDeps, req: SubscriptionFilter, ctx: HandlerContext): Promise<SubscriptionList> {
  const conditions: Condition[] = [];
  const violations: FieldViolation[] = [];
  if (req.id !== '') {
    if (isValidUid(req.id)) conditions.push(equal('uid', req.id));
    else violations.push({ field: 'id', description: `"${req.id.slice(0, 80)}" is not a valid uid` });
  }
  const items: SubscriptionList['items'] = [];
  let pageToken = '';
  for (let pages = 1; ; pages++) {
    const params = { uidp: req.uidp, pageSize: MAX_PAGE_SIZE, pageToken, orderBy: '', skip: 0 };
    const page = await subscriptionsPage(deps, ctx, params, { conditions, key: { id: req.id }, violations });
    items.push(...page.rows.map(v1SubscriptionFromRow));
    if (page.nextPageToken === '') return { $typeName: 'berth.events.v1.SubscriptionList', items };
    if (items.length >= MAX_V1_ITEMS || pages * MAX_PAGE_SIZE >= MAX_V1_ITEMS) throw tooManySubscriptionsForV1(MAX_V1_ITEMS);
    pageToken = page.nextPageToken;
  }
}
