import type { HandlerContext } from '@connectrpc/connect';
import type { DeleteSubscriptionRequest } from '../../gen/berth/events/v1/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { removeSubscription } from '../subscriptions/delete-subscription.js';

export async function deleteSubscriptionV1(deps: ServiceDeps, req: DeleteSubscriptionRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await removeSubscription(deps, ctx, req.id);
  return {};
}
