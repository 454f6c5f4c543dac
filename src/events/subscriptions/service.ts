// berth.events.v2.SubscriptionsService: the subscriptions themselves, and
// their delivery log (src/events/delivery-log/).
import type { ServiceImpl } from '@connectrpc/connect';
import type { SubscriptionsService } from '../../gen/berth/events/v2/subscriptions_pb.js';
import { deliveryMethods } from '../delivery-log/delivery-methods.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { createSubscription } from './create-subscription.js';
import { deleteSubscription } from './delete-subscription.js';
import { getSubscription } from './get-subscription.js';
import { listSubscriptions } from './list-subscriptions.js';

export function subscriptionsService(deps: ServiceDeps): ServiceImpl<typeof SubscriptionsService> {
  return {
    listSubscriptions: (req, ctx) => listSubscriptions(deps, req, ctx),
    getSubscription: (req) => getSubscription(deps, req),
    createSubscription: (req, ctx) => createSubscription(deps, req, ctx),
    deleteSubscription: (req, ctx) => deleteSubscription(deps, req, ctx),
    ...deliveryMethods(deps),
  };
}
