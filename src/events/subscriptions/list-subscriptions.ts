// ListSubscriptions: unscoped in the guard, so the list narrows itself to the
// groups where the caller holds subscriptions.list; uidp filters and paging
// come from the list engine. Default order: uid ascending (the reference's
// primary key order).
import type { HandlerContext } from '@connectrpc/connect';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListSubscriptionsRequest, ListSubscriptionsResponse } from '../../gen/berth/events/v2/subscriptions_pb.js';
import { callerOf } from '../../auth/caller.js';
import type { Condition } from '../../list/conditions.js';
import { runList, type ListParams, type ListSpec } from '../../list/run-list.js';
import type { Page } from '../../list/keyset-page.js';
import type { FieldViolation } from '../../core/api-error.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { EVENTS_DOMAIN } from '../errors.js';
import { subscriptionFromRow, type SubscriptionRow } from './subscription-row.js';

export const SUBSCRIPTIONS_LIST: ListSpec = {
  table: 'event_subscriptions',
  domain: EVENTS_DOMAIN,
  columns: { uid: 'uid', created_at: 'create_time' },
  defaultOrder: { field: 'uid', desc: false },
};

/** One page of the subscriptions the caller may list (shared with the v1 List). */
export async function subscriptionsPage(
  deps: ServiceDeps,
  ctx: HandlerContext,
  params: ListParams,
  filters: { conditions: Condition[]; key: unknown; violations?: FieldViolation[] },
): Promise<Page<SubscriptionRow>> {
  const caller = callerOf(ctx, EVENTS_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_EVENTS_SUBSCRIPTION_LIST);
  return runList<SubscriptionRow>(deps, SUBSCRIPTIONS_LIST, params, filters, visible, caller.tableVersions);
}

export async function listSubscriptions(deps: ServiceDeps, req: ListSubscriptionsRequest, ctx: HandlerContext): Promise<ListSubscriptionsResponse> {
  const page = await subscriptionsPage(deps, ctx, req, { conditions: [], key: null });
  return {
    $typeName: 'berth.events.v2.ListSubscriptionsResponse',
    subscriptions: page.rows.map(subscriptionFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}
