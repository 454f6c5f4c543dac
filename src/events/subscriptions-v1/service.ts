// berth.events.v1.SubscriptionsService: the v1 shapes over the same
// subscriptions, rules and events as v2 (src/events/subscriptions/).
import type { ServiceImpl } from '@connectrpc/connect';
import type { SubscriptionsService } from '../../gen/berth/events/v1/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createSubscriptionV1 } from './create-subscription.js';
import { deleteSubscriptionV1 } from './delete-subscription.js';
import { listSubscriptionsV1 } from './list-subscriptions.js';

export function subscriptionsV1Service(deps: ServiceDeps): ServiceImpl<typeof SubscriptionsService> {
  return {
    create: (req, ctx) => createSubscriptionV1(deps, req, ctx),
    list: (req, ctx) => listSubscriptionsV1(deps, req, ctx),
    delete: (req, ctx) => deleteSubscriptionV1(deps, req, ctx),
  };
}
