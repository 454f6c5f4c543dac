// A mutation refused with PERMISSION_DENIED changes nothing, so no change's
// transaction can carry its entry: it is written here, in a transaction of its
// own, after the refusal. Only callers with an identity are recorded (a request
// without a valid token is not an attempt by anyone; the access log has it).
// A failure to write is logged and never changes the caller's answer.
import type { Logger } from 'pino';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import { writeAuditEntry } from './audit-writer.js';

export interface DeniedAttempt {
  /** The uid the permission was checked at (a group, or a resource below one). */
  at: string;
  identity: string;
  action: string;
  resourceType: string;
  address: string;
  resourceName?: string;
}

export async function recordDenied(store: Store, logger: Logger, d: DeniedAttempt): Promise<void> {
  try {
    await transact(store, (tx) =>
      writeAuditEntry(tx, {
        group: d.at,
        identity: d.identity,
        action: d.action,
        resourceUid: d.at,
        resourceType: d.resourceType,
        resourceName: d.resourceName,
        address: d.address,
        outcome: 'denied',
      }),
    );
  } catch (err) {
    logger.warn({ err: { message: (err as Error).message }, action: d.action }, 'could not write the audit entry of a refused attempt');
  }
}
