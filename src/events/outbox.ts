// The transactional outbox: an event is a row written with `tx`, the
// transaction of the change it describes, so it commits (and is delivered)
// exactly when the change does, and a crash after commit loses nothing: the
// delivery worker finds the row on its next pass (and in this process is
// woken as soon as the transaction commits). The same call writes the
// event's audit entry (audit/audit-writer.ts): every change that writes an
// event is audited in its own transaction, and the type makes each caller
// say whether its event records a change.
import { sql } from 'kysely';
import { v7 as timeOrderedUuid } from 'uuid';
import { nowIso } from '../core/clock.js';
import { ancestorsOf } from '../core/uidp.js';
import { compiledQuery, insertCompiled, runCompiled } from '../store/compiled-queries.js';
import { afterCommit, type Tx } from '../store/transact.js';
import { resourceTypeOfEvent, writeAuditEntry, type AuditFacts } from './audit/audit-writer.js';
import { ringDeliveryWorkers } from './delivery-worker/delivery-signal.js';

const OUTBOX_INSERT = compiledQuery('outbox insert with fan-out flag');

export type EventAudience = 'customer' | 'internal';

export interface NewEvent {
  /** The type after the namespace, e.g. api.iam.group.created.v1. */
  type: string;
  audience: EventAudience;
  /** The group whose subscriptions, and its ancestors', receive it. */
  group: string;
  /** The uid of the resource the event is about (ce-subject). */
  subject: string;
  /** The identity uid of whoever made the change; absent for Berth itself. */
  actor?: string;
  /** Already in proto3 JSON (or the registry's access record). */
  body: unknown;
  /** The body's message type name, e.g. berth.iam.v2.Group. */
  bodyType: string;
  /** Further CloudEvent extension attributes (lower-case names). */
  extensions?: Record<string, string>;
  /** The audit entry's facts, or false for what changes nothing a person did (a pull, a derived report). */
  audit: AuditFacts | false;
}

/** Writes `event` to the outbox inside `tx`; returns its id (the ce-id). */
export async function emitEvent(tx: Tx, event: NewEvent): Promise<string> {
  if (event.audit) {
    await writeAuditEntry(tx, {
      ...event.audit,
      group: event.group,
      identity: event.actor,
      resourceUid: event.subject,
      resourceType: event.audit.resourceType ?? resourceTypeOfEvent(event.type),
      outcome: 'succeeded',
    });
  }
  // Time-ordered (UUIDv7): each new id lands at the end of the outbox's event_id
  // index instead of on a random page (a cheaper insert: docs/performance.md).
  const eventId = timeOrderedUuid();
  const row = outboxRow(event, eventId);
  // Compiled once: every mutating RPC runs it. Internal events are never fanned out.
  if (event.audience !== 'customer') return insertCompiled(tx, 'event_outbox', row).then(() => eventId);
  // An event no subscription can receive (none on its group or an ancestor
  // when the row is written) is written as fanned out already, so the worker
  // has nothing to do for it. A subscription committed while this statement
  // runs may miss it, as it may miss an event whose fan-out ran before that
  // commit: the edge of "made after the subscription" is not sharp either way.
  const groups = [event.group, ...ancestorsOf(event.group)];
  const columns = Object.keys(row);
  const written = await runCompiled<{ fanned_out: number }>(tx, OUTBOX_INSERT, [...Object.values(row), ...groups], (v) =>
    tx
      .insertInto('event_outbox')
      .values({
        ...(Object.fromEntries(columns.map((c, i) => [c, v[i]])) as typeof row),
        fanned_out: fannedOutUnlessSubscribed(v.slice(columns.length)),
      })
      .returning('fanned_out'),
  );
  if (written[0]?.fanned_out === 0) afterCommit(tx, ringDeliveryWorkers);
  return eventId;
}

/** The fanned_out value of a customer event of `groups` (its group and ancestors): 1, done, when no subscription is on any of them. */
function fannedOutUnlessSubscribed(groups: readonly unknown[]) {
  return sql<number>`case when exists (select 1 from event_subscriptions where parent_uid in (${sql.join(groups)})) then 0 else 1 end`;
}

function outboxRow(event: NewEvent, eventId: string) {
  return {
    event_id: eventId,
    type: event.type,
    audience: event.audience === 'customer' ? 1 : 0,
    group_uid: event.group,
    subject: event.subject,
    actor: JSON.stringify(event.actor === undefined ? {} : { subject: event.actor }),
    body: JSON.stringify(event.body ?? {}),
    body_type: event.bodyType,
    extensions: JSON.stringify(event.extensions ?? {}),
    create_time: nowIso(),
  };
}

/** Events per INSERT of emitEvents: about a dozen parameters each. */
const EVENTS_PER_INSERT = 200;

/**
 * Writes events of changes no person made (`audit: false`) to the outbox
 * inside `tx`, one INSERT per EVENTS_PER_INSERT: the rows emitEvent writes one
 * by one, for a writer of many derived changes at once (a page of re-matched
 * vulnerability reports). Returns their ids in order.
 */
export async function emitEvents(tx: Tx, events: readonly NewEvent[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
    const rows = events.slice(i, i + EVENTS_PER_INSERT).map((event) => {
      if (event.audit) throw new Error(`emitEvents writes no audit entry, and ${event.type} has one`);
      const eventId = timeOrderedUuid();
      ids.push(eventId);
      // As emitEvent: fanned out already when no subscription can receive it; an internal event never is (the column's default).
      const fannedOut = event.audience === 'customer' ? fannedOutUnlessSubscribed([event.group, ...ancestorsOf(event.group)]) : sql<number>`0`;
      return { ...outboxRow(event, eventId), fanned_out: fannedOut };
    });
    const written = await tx.insertInto('event_outbox').values(rows).returning(['audience', 'fanned_out']).execute();
    if (written.some((w) => Number(w.audience) === 1 && Number(w.fanned_out) === 0)) afterCommit(tx, ringDeliveryWorkers);
  }
  return ids;
}
