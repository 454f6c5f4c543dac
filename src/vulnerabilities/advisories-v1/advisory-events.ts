// The events of an advisory through the v1 API. An added event starts
// PENDING, its author the caller. UpdateAdvisoryEvent is either a review
// (status APPROVED, REJECTED or REQUEST_CHANGES: advisories.approve at the
// advisory, by someone other than the author, who becomes the reviewer) or
// the author's edit of the payload (status PENDING or unset, allowed while
// the event is PENDING or REQUEST_CHANGES; it goes back to PENDING).
// Approved and rejected events are final. Every write refreshes the
// advisory's latest_event_type and moves its update_time, in the
// transaction of the change and its event.
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso, timestampToIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import {
  AdvisoryEventSchema as V1EventSchema,
  ReviewStatus,
  type AdvisoryEvent as V1Event,
  type AdvisoryEventFilter,
  type AdvisoryEventList,
  type CreateAdvisoryEventRequest,
} from '../../gen/berth/vulnerabilities/v1/advisories_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact, type Tx } from '../../store/transact.js';
import { canonicalJson, eventRow, refreshLatestEventType } from '../advisory-rows.js';
import { eventsOf, loadAdvisoryRow, type AdvisoryEventRow } from '../advisories/advisory-read.js';
import { advisoryEventFinal, advisoryEventNotFound, badAdvisoriesRequest, notEventAuthor, selfReview, VULNERABILITIES_DOMAIN } from '../errors.js';
import { KIND_NAMES } from '../event-kinds.js';
import type { NormalizedEvent } from '../import/normalized-advisory.js';
import { eventContent } from './advisory-rules.js';
import { v1EventFromRow } from './v1-messages.js';

const STATE_NAMES: Record<number, NormalizedEvent['reviewState']> = {
  [ReviewStatus.PENDING]: 'REVIEW_STATE_PENDING',
  [ReviewStatus.APPROVED]: 'REVIEW_STATE_APPROVED',
  [ReviewStatus.REQUEST_CHANGES]: 'REVIEW_STATE_REQUEST_CHANGES',
  [ReviewStatus.REJECTED]: 'REVIEW_STATE_REJECTED',
};
const FINAL = new Set<number>([ReviewStatus.APPROVED, ReviewStatus.REJECTED]);
const REVIEWS = new Set<number>([ReviewStatus.APPROVED, ReviewStatus.REJECTED, ReviewStatus.REQUEST_CHANGES]);
// A client's clock may run a little ahead of ours.
const FUTURE_SLACK_MS = 5 * 60 * 1000;

/** Moves the advisory's update_time to now (never back) and recomputes its latest approved event type. */
async function touchAdvisory(tx: Tx, uid: string, now: string): Promise<void> {
  await tx.updateTable('advisories').set({ update_time: now }).where('uid', '=', uid).where('update_time', '<', now).execute();
  await refreshLatestEventType(tx, uid);
}

export async function createAdvisoryEvent(deps: ServiceDeps, req: CreateAdvisoryEventRequest, ctx: HandlerContext): Promise<V1Event> {
  const caller = callerOf(ctx, VULNERABILITIES_DOMAIN);
  const bad: FieldViolation[] = [];
  const content = eventContent(req.advisoryEvent, 'advisory_event', bad);
  const now = nowIso();
  let time = now;
  const ts = req.advisoryEvent?.timestamp;
  if (ts) {
    time = timestampToIso(ts);
    if (Date.parse(time) > Date.now() + FUTURE_SLACK_MS) bad.push({ field: 'advisory_event.timestamp', description: 'must not be in the future' });
  }
  if (bad.length > 0 || !content) throw badAdvisoriesRequest(bad);
  return transact(deps.store, async (tx) => {
    const advisory = await loadAdvisoryRow(tx, req.parentId);
    const e: NormalizedEvent = {
      time,
      kind: content.kind,
      payload: content.payload,
      author: caller.identityUid,
      reviewer: '',
      reviewState: 'REVIEW_STATE_PENDING',
      ...(content.issue !== undefined ? { issue: content.issue } : {}),
    };
    const row = eventRow(advisory.uid, newChildUid(advisory.uid), e, now, content.findings);
    await tx.insertInto('advisory_events').values(row).execute();
    await touchAdvisory(tx, advisory.uid, now);
    const message = v1EventFromRow(row);
    await emitRpcEvent(tx, ctx, { group: advisory.parent_uid, subject: row.uid, schema: V1EventSchema, message });
    return message;
  });
}

export async function listAdvisoryEvents(deps: ServiceDeps, req: AdvisoryEventFilter): Promise<AdvisoryEventList> {
  const advisory = await loadAdvisoryRow(deps.store.db, req.parentId);
  const rows = (await eventsOf(deps.store.db, [advisory.uid])).get(advisory.uid) ?? [];
  return { $typeName: 'berth.vulnerabilities.v1.AdvisoryEventList', parentId: advisory.uid, items: rows.map(v1EventFromRow) };
}

/** The event as a NormalizedEvent, so eventRow recomputes its row and content hash after a change. */
function normalizedOf(row: AdvisoryEventRow): NormalizedEvent {
  const data = JSON.parse(row.data) as Record<string, NormalizedEvent['payload']>;
  const [oneofCase] = Object.keys(data);
  const kind = (Object.keys(KIND_NAMES) as Array<keyof typeof KIND_NAMES>).find((k) => KIND_NAMES[k].oneofCase === oneofCase) ?? 'detection';
  return {
    time: row.create_time,
    kind,
    payload: data[oneofCase] ?? {},
    author: row.author,
    reviewer: row.reviewer,
    reviewState: STATE_NAMES[row.review_state] ?? 'REVIEW_STATE_PENDING',
    ...(row.issue !== null ? { issue: row.issue } : {}),
  };
}

export async function updateAdvisoryEvent(deps: ServiceDeps, req: V1Event, ctx: HandlerContext): Promise<V1Event> {
  const caller = callerOf(ctx, VULNERABILITIES_DOMAIN);
  const review = REVIEWS.has(req.status);
  if (!review && req.status !== ReviewStatus.PENDING && req.status !== ReviewStatus.UNKNOWN) {
    throw badAdvisoriesRequest([{ field: 'status', description: `unknown status ${req.status}` }]);
  }
  const bad: FieldViolation[] = [];
  // A review may repeat the payload (a read-modify-write client sends it back) but not change it.
  const content = req.type.case === undefined && review ? undefined : eventContent(req, 'advisory_event', bad);
  if (bad.length > 0) throw badAdvisoriesRequest(bad);
  return transact(deps.store, async (tx) => {
    const row = await tx.selectFrom('advisory_events').selectAll().where('uid', '=', req.id).executeTakeFirst();
    if (!row) throw advisoryEventNotFound(req.id);
    if (FINAL.has(row.review_state)) throw advisoryEventFinal(row.uid, 'the event was approved or rejected; add a new event instead');
    const advisory = await loadAdvisoryRow(tx, row.advisory_uid);
    const e = normalizedOf(row);
    const now = nowIso();
    if (review) {
      await caller.require(VULNERABILITIES_DOMAIN, [Capability.CAP_ADVISORIES_APPROVE], advisory.uid);
      if (caller.identityUid === row.author) throw selfReview();
      if (content && canonicalJson({ [KIND_NAMES[content.kind].oneofCase]: content.payload }) !== canonicalJson(JSON.parse(row.data))) {
        throw badAdvisoriesRequest([{ field: 'advisory_event.type', description: 'a review changes only the status; the author edits the payload' }]);
      }
      e.reviewer = caller.identityUid;
      e.reviewState = STATE_NAMES[req.status];
    } else {
      if (caller.identityUid !== row.author) throw notEventAuthor();
      if (!content) throw badAdvisoriesRequest([{ field: 'advisory_event.type', description: 'an edit needs the event type and its payload' }]);
      e.kind = content.kind;
      e.payload = content.payload;
      if (content.issue !== undefined) e.issue = content.issue;
      else delete e.issue;
      e.reviewState = 'REVIEW_STATE_PENDING';
    }
    const findings = !review && content ? content.findings : (row.findings ?? undefined);
    const next = eventRow(advisory.uid, row.uid, e, now, findings ?? undefined);
    const written = await tx
      .updateTable('advisory_events')
      .set({
        update_time: next.update_time,
        reviewer: next.reviewer,
        review_state: next.review_state,
        type: next.type,
        data: next.data,
        findings: next.findings,
        issue: next.issue,
        content_hash: next.content_hash,
      })
      .where('uid', '=', row.uid)
      // Only from the state this decision read: a concurrent review (PostgreSQL's
      // read committed lets two read PENDING) must not overwrite a final one.
      .where('review_state', '=', row.review_state)
      .executeTakeFirst();
    if (written.numUpdatedRows === 0n) throw advisoryEventFinal(row.uid, 'the event was reviewed meanwhile; read it again');
    await touchAdvisory(tx, advisory.uid, now);
    const message = v1EventFromRow(next);
    await emitRpcEvent(tx, ctx, { group: advisory.parent_uid, subject: row.uid, schema: V1EventSchema, message });
    return message;
  });
}
