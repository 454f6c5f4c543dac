import type { GetSubscriptionRequest, Subscription } from '../../gen/berth/events/v2/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { loadSubscriptionRow, subscriptionFromRow } from './subscription-row.js';

/** The guard has checked subscriptions.list at the uid (the reference reuses it for Get). */
export async function getSubscription(deps: ServiceDeps, req: GetSubscriptionRequest): Promise<Subscription> {
  return subscriptionFromRow(await loadSubscriptionRow(deps.store.db, req.uid));
}
