// A subscription as the v1 API shows it: {id, sink}.
import type { Subscription } from '../../gen/berth/events/v1/subscriptions_pb.js';
import type { SubscriptionRow } from '../subscriptions/subscription-row.js';

export function v1SubscriptionFromRow(row: SubscriptionRow): Subscription {
  return { $typeName: 'berth.events.v1.Subscription', id: row.uid, sink: row.sink };
}
