// DeleteSubscription, and the removal both API versions share: the row goes
// and its deleted event (the v2 DeleteSubscriptionRequest, to the
// subscription's group) commits with it.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { DeleteSubscriptionRequestSchema, type DeleteSubscriptionRequest } from '../../gen/berth/events/v2/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { subscriptionNotFound } from '../errors.js';
import { emitRpcEvent } from '../rpc-event.js';
import { loadSubscriptionRow } from './subscription-row.js';

/** Deletes the subscription `uid`; NOT_FOUND when there is none. */
export async function removeSubscription(deps: ServiceDeps, ctx: HandlerContext, uid: string): Promise<void> {
  await transact(deps.store, async (tx) => {
    const row = await loadSubscriptionRow(tx, uid);
    // A concurrent delete may have won since the read: only the one that removed the row emits.
    const gone = await tx.deleteFrom('event_subscriptions').where('uid', '=', uid).executeTakeFirst();
    if (gone.numDeletedRows === 0n) throw subscriptionNotFound(uid);
    await emitRpcEvent(tx, ctx, {
      group: row.parent_uid,
      subject: uid,
      schema: DeleteSubscriptionRequestSchema,
      message: create(DeleteSubscriptionRequestSchema, { uid }),
    });
  });
}

export async function deleteSubscription(deps: ServiceDeps, req: DeleteSubscriptionRequest, ctx: HandlerContext): Promise<Record<string, never>> {
  await removeSubscription(deps, ctx, req.uid);
  return {};
}
