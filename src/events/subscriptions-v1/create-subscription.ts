import type { HandlerContext } from '@connectrpc/connect';
import type { CreateSubscriptionRequest, Subscription } from '../../gen/berth/events/v1/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { addSubscription } from '../subscriptions/create-subscription.js';
import { v1SubscriptionFromRow } from './subscription-v1.js';

/** v1 Create: the v2 rules and event; v1 has no signing secret (an id in the body is ignored, as v2 ignores an output-only uid). */
export async function createSubscriptionV1(deps: ServiceDeps, req: CreateSubscriptionRequest, ctx: HandlerContext): Promise<Subscription> {
  const row = await addSubscription(deps, ctx, req.parentId, 'parent_id', { sink: req.subscription?.sink ?? '', signingSecret: '' });
  return v1SubscriptionFromRow(row);
}
