// The delivery log's RPCs of berth.events.v2.SubscriptionsService, spread
// into the service's implementation beside the subscriptions' own.
import type { ServiceImpl } from '@connectrpc/connect';
import type { SubscriptionsService } from '../../gen/berth/events/v2/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { listDeliveries } from './list-deliveries.js';
import { redeliverDelivery } from './redeliver-delivery.js';

export function deliveryMethods(deps: ServiceDeps): Pick<ServiceImpl<typeof SubscriptionsService>, 'listDeliveries' | 'redeliverDelivery'> {
  return {
    listDeliveries: (req) => listDeliveries(deps, req),
    redeliverDelivery: (req) => redeliverDelivery(deps, req),
  };
}
