// The one writer of the audit log (docs/audit.md). Successful changes reach it
// through the outbox (emitEvent in ../outbox.ts writes the entry an event
// carries, in the event's transaction, so an entry commits exactly when its
// change does); the registry's deletes, which write no event, and refused
// mutations (denied-attempt.ts) call it directly. Only names and uids are
// kept, each bounded: never a body, a token or a secret.
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import { insertCompiled } from '../../store/compiled-queries.js';
import type { Tx } from '../../store/transact.js';
import { AUDIT_DENIED, AUDIT_SUCCEEDED } from '../audit-tables.js';

/** What an event adds for its audit entry: the rest (group, actor, subject) is the event's. */
export interface AuditFacts {
  /** The RPC ("berth.iam.v2.GroupsService/CreateGroup") or registry action ("registry.push"). */
  action: string;
  /** The caller's IP address; '' when the change came from no request. */
  address: string;
  /** Overrides the type read from the event's type (registry pushes). */
  resourceType?: string;
  /** Registry actions: repository, tag and digest. */
  resourceName?: string;
}

export interface AuditRecord extends AuditFacts {
  group: string;
  /** '' or absent for Berth itself. */
  identity?: string;
  resourceUid: string;
  resourceType: string;
  outcome: 'succeeded' | 'denied';
}

const VERB = /\.(?:created|updated|deleted|accepted|registered|generated|regenerated|revoked|approved|denied|imported)(?:\.[a-z_]+)?\.v\d+$/;

/** "api.iam.group.created.v1" → "iam.group": the event type without its namespace, verb and version. */
export function resourceTypeOfEvent(type: string): string {
  const bare = type.replace(/^api\./, '');
  const m = VERB.exec(bare);
  return m ? bare.slice(0, m.index) : bare.replace(/\.v\d+$/, '');
}

const bounded = (s: string | undefined, max: number): string => (s ?? '').slice(0, max);

export async function writeAuditEntry(tx: Tx, r: AuditRecord): Promise<void> {
  await insertCompiled(tx, 'audit_entries', {
    uid: newChildUid(r.group),
    parent_uid: r.group,
    identity: bounded(r.identity, 300),
    action: bounded(r.action, 200),
    resource_uid: bounded(r.resourceUid, 600),
    resource_type: bounded(r.resourceType, 100),
    resource_name: bounded(r.resourceName, 1000),
    address: bounded(r.address, 64),
    outcome: r.outcome === 'denied' ? AUDIT_DENIED : AUDIT_SUCCEEDED,
    create_time: nowIso(),
  });
}
