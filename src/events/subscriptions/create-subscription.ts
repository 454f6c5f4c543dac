// CreateSubscription, and the write both API versions share: input checked,
// then (the guard has checked subscriptions.create at the parent) the parent
// must be a group; the row and its event commit in one transaction.
import type { HandlerContext } from '@connectrpc/connect';
import { SubscriptionSchema, type CreateSubscriptionRequest, type Subscription } from '../../gen/berth/events/v2/subscriptions_pb.js';
import { nowIso } from '../../core/clock.js';
import { isValidUid, newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badSubscriptionRequest, subscriptionGroupNotFound } from '../errors.js';
import { emitRpcEvent } from '../rpc-event.js';
import { storedSigningSecret } from './signing-secret.js';
import { subscriptionFromRow, type SubscriptionRow } from './subscription-row.js';
import { subscriptionViolations, type NewSubscription } from './subscription-rules.js';

/**
 * Adds a subscription under the group `parent` and emits its created event
 * (the v2 Subscription, whichever version was called). `parentField` names
 * the request's parent field in errors.
 */
export async function addSubscription(
  deps: ServiceDeps,
  ctx: HandlerContext,
  parent: string,
  parentField: string,
  incoming: NewSubscription,
): Promise<SubscriptionRow> {
  const bad = subscriptionViolations(incoming, deps.events.allowInsecureSinks);
  const uid = newChildUid(parent);
  if (!isValidUid(uid)) bad.push({ field: parentField, description: 'the group is nested too deeply to hold a subscription' });
  if (bad.length > 0) throw badSubscriptionRequest(bad);
  const now = nowIso();
  const row: SubscriptionRow = {
    uid,
    parent_uid: parent,
    sink: incoming.sink,
    signing_secret: storedSigningSecret(deps.secrets, uid, incoming.signingSecret),
    create_time: now,
    update_time: now,
  };
  await transact(deps.store, async (tx) => {
    const group = await tx.selectFrom('groups').select('uid').where('uid', '=', parent).executeTakeFirst();
    if (!group) throw subscriptionGroupNotFound(parent);
    await tx.insertInto('event_subscriptions').values(row).execute();
    await emitRpcEvent(tx, ctx, { group: parent, subject: uid, schema: SubscriptionSchema, message: subscriptionFromRow(row) });
  });
  return row;
}

export async function createSubscription(deps: ServiceDeps, req: CreateSubscriptionRequest, ctx: HandlerContext): Promise<Subscription> {
  const s = req.subscription;
  const row = await addSubscription(deps, ctx, req.parent, 'parent', { sink: s?.sink ?? '', signingSecret: s?.signingSecret ?? '' });
  return subscriptionFromRow(row);
}
