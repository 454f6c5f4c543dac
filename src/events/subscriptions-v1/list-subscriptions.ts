// v1 List: every subscription the caller may list, filtered by `id` and
// uidp, in uid order, in one answer (v1 has no paging): the shared v1 walk
// over the v2 list's pages (src/list/v1-list.ts).
import type { HandlerContext } from '@connectrpc/connect';
import type { SubscriptionFilter, SubscriptionList } from '../../gen/berth/events/v1/subscriptions_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isValidUid } from '../../core/uidp.js';
import { equal, type Condition } from '../../list/conditions.js';
import { allItems, type V1List } from '../../list/v1-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { EVENTS_DOMAIN } from '../errors.js';
import { subscriptionsPage } from '../subscriptions/list-subscriptions.js';
import { v1SubscriptionFromRow } from './subscription-v1.js';

const SUBSCRIPTIONS: V1List = { domain: EVENTS_DOMAIN, what: 'subscriptions', v2Path: '/events/v2/subscriptions' };

export async function listSubscriptionsV1(deps: ServiceDeps, req: SubscriptionFilter, ctx: HandlerContext): Promise<SubscriptionList> {
  const conditions: Condition[] = [];
  const violations: FieldViolation[] = [];
  if (req.id !== '') {
    if (isValidUid(req.id)) conditions.push(equal('uid', req.id));
    else violations.push({ field: 'id', description: `"${req.id.slice(0, 80)}" is not a valid uid` });
  }
  const items = await allItems(SUBSCRIPTIONS, async (pageSize, pageToken) => {
    const params = { uidp: req.uidp, pageSize, pageToken, orderBy: '', skip: 0 };
    const page = await subscriptionsPage(deps, ctx, params, { conditions, key: { id: req.id }, violations });
    return [page.rows.map(v1SubscriptionFromRow), page.nextPageToken];
  });
  return { $typeName: 'berth.events.v1.SubscriptionList', items };
}
