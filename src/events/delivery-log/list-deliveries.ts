// ListDeliveries: one subscription's delivery log, newest event first,
// optionally only one status, in keyset pages under the same authenticated
// page tokens as every list (src/list/page-token.ts). The guard has checked
// subscriptions.list at the subscription's uid before this runs, so a caller
// who may not see it learns nothing of whether it exists. No total: the log
// changes with every delivery, and counting it would cost more than a page.
import { create } from '@bufbuild/protobuf';
import type { FieldViolation } from '../../core/api-error.js';
import { fingerprint, pageSizeOf } from '../../list/list-params.js';
import { ListDeliveriesResponseSchema, type ListDeliveriesRequest, type ListDeliveriesResponse } from '../../gen/berth/events/v2/subscriptions_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import type { Executor } from '../../store/transact.js';
import { badDeliveriesRequest, subscriptionNotFound } from '../errors.js';
import { DELIVERY_DEAD } from '../events-tables.js';
import { deliveryFromRow, deliveryRows } from './delivery-row.js';

/** NOT_FOUND unless the subscription exists. */
export async function requireSubscription(db: Executor, uid: string): Promise<void> {
  const row = await db.selectFrom('event_subscriptions').select('uid').where('uid', '=', uid).executeTakeFirst();
  if (!row) throw subscriptionNotFound(uid);
}

export async function listDeliveries(deps: ServiceDeps, req: ListDeliveriesRequest): Promise<ListDeliveriesResponse> {
  const violations: FieldViolation[] = [];
  const pageSize = pageSizeOf(req.pageSize);
  if (typeof pageSize !== 'number') violations.push(pageSize);
  if (!Number.isInteger(req.status) || req.status < 0 || req.status > DELIVERY_DEAD)
    violations.push({ field: 'status', description: 'status must be PENDING, DELIVERED or DEAD (or unset for all)' });
  const query = fingerprint({ t: 'event_deliveries', s: req.uid, st: req.status });
  let before: number | undefined;
  if (req.pageToken !== '') {
    const check = deps.pageTokens.check(req.pageToken, query);
    if (check.kind === 'invalid') violations.push({ field: 'page_token', description: check.reason });
    if (check.kind === 'cursor') {
      before = Number(check.cursor.value);
      if (!Number.isSafeInteger(before)) violations.push({ field: 'page_token', description: 'page token is malformed' });
    }
    // expired: start again from the newest, as every list does
  }
  if (violations.length > 0 || typeof pageSize !== 'number') throw badDeliveriesRequest(violations);

  const db = deps.store.db;
  await requireSubscription(db, req.uid);
  let q = deliveryRows(db).where('d.subscription_uid', '=', req.uid);
  if (req.status !== 0) q = q.where('d.status', '=', req.status);
  if (before !== undefined) q = q.where('d.outbox_id', '<', before);
  const rows = await q
    .orderBy('d.outbox_id', 'desc')
    .limit(pageSize + 1)
    .execute();
  const more = rows.length > pageSize;
  const page = more ? rows.slice(0, pageSize) : rows;
  const last = page[page.length - 1];
  return create(ListDeliveriesResponseSchema, {
    deliveries: page.map((r) => deliveryFromRow(r, deps.events.namespace)),
    nextPageToken: more ? deps.pageTokens.issue(query, { value: String(last.outbox_id), uid: String(last.id) }) : '',
  });
}
