// RedeliverDelivery: sends a delivery again, whatever its status, with the
// same ce-id: it becomes pending with a fresh attempt count and a fresh retry
// window (--event-max-age from now), and goes as soon as no earlier event of
// its subscription and subject is pending. An attempt in flight when this
// commits keeps going, but its result is dropped (its claim no longer holds).
// The guard has checked subscriptions.update at the subscription's uid.
import { nowIso } from '../../core/clock.js';
import type { Delivery, RedeliverDeliveryRequest } from '../../gen/berth/events/v2/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { afterCommit, transact } from '../../store/transact.js';
import { ringDeliveryWorkers } from '../delivery-worker/delivery-signal.js';
import { badDeliveriesRequest, deliveryNotFound } from '../errors.js';
import { DELIVERY_PENDING } from '../events-tables.js';
import { deliveryFromRow, deliveryRows } from './delivery-row.js';
import { requireSubscription } from './list-deliveries.js';

const DELIVERY_ID = /^[1-9][0-9]{0,14}$/;

export async function redeliverDelivery(deps: ServiceDeps, req: RedeliverDeliveryRequest): Promise<Delivery> {
  if (!DELIVERY_ID.test(req.id))
    throw badDeliveriesRequest([{ field: 'id', description: `"${req.id.slice(0, 40)}" is not a delivery id (a positive number)` }]);
  const id = Number(req.id);
  const row = await transact(deps.store, async (tx) => {
    const found = await tx.selectFrom('event_deliveries').select('id').where('id', '=', id).where('subscription_uid', '=', req.uid).executeTakeFirst();
    if (!found) {
      await requireSubscription(tx, req.uid);
      throw deliveryNotFound(req.uid, req.id);
    }
    const now = nowIso();
    await tx
      .updateTable('event_deliveries')
      .set({
        status: DELIVERY_PENDING,
        attempts: 0,
        next_attempt_time: now,
        retry_from: now,
        lease_owner: '',
        last_status_code: 0,
        last_error: '',
        delivered_time: '',
      })
      .where('id', '=', id)
      .execute();
    afterCommit(tx, ringDeliveryWorkers);
    return deliveryRows(tx).where('d.id', '=', id).executeTakeFirstOrThrow();
  });
  return deliveryFromRow(row, deps.events.namespace);
}
