// Every failure leaves Berth as one of its named errors. Errors raised on
// purpose pass through; a unique index that stopped a racing create becomes
// ALREADY_EXISTS; a database that cannot be reached becomes UNAVAILABLE (with
// Retry-After); a full disk becomes storageFull (UNAVAILABLE, Retry-After;
// noted for /healthz); anything else is logged once, here, and the client sees
// INTERNAL without the cause (a database message must not leak).
import { ConnectError } from '@connectrpc/connect';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../store/constraint-error.js';
import type { StorageHealth } from '../runtime/storage-health.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { isStorageFull } from '../store/storage-full.js';
import { databaseUnavailable, internal, justCreated, storageFull } from './errors.js';

export function normalizeError(
  err: unknown,
  domain: string,
  logger: Logger,
  where: { rpc?: string; resourceType?: string; path?: string },
  storage?: StorageHealth,
): ConnectError {
  if (err instanceof ConnectError) return err; // raised on purpose, by Berth or by Connect itself
  if (isUniqueViolation(err)) return justCreated(domain, where.resourceType ?? '');
  if (isDatabaseUnavailable(err)) {
    logger.warn({ err, ...where }, 'database unavailable');
    return databaseUnavailable(domain);
  }
  if (isStorageFull(err)) {
    if (storage) storage.noteFull(err, { rpc: where.rpc, path: where.path });
    else logger.error({ code: (err as { code?: unknown }).code, ...where }, 'storage full');
    return storageFull(domain);
  }
  logger.error({ err, ...where }, 'request failed');
  return internal(domain);
}
