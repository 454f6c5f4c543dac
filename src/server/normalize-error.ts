// Every failure leaves Berth as one of its named errors. Errors raised on
// purpose pass through; a unique index that stopped a racing create becomes
// ALREADY_EXISTS; a database that cannot be reached becomes UNAVAILABLE (with
// Retry-After); anything else is logged once, here, and the client sees
// INTERNAL without the cause (a database message must not leak).
import { ConnectError } from '@connectrpc/connect';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../store/constraint-error.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { databaseUnavailable, internal, justCreated } from './errors.js';

export function normalizeError(err: unknown, domain: string, logger: Logger, where: { rpc?: string; resourceType?: string; path?: string }): ConnectError {
  if (err instanceof ConnectError) return err; // raised on purpose, by Berth or by Connect itself
  if (isUniqueViolation(err)) return justCreated(domain, where.resourceType ?? '');
  if (isDatabaseUnavailable(err)) {
    logger.warn({ err, ...where }, 'database unavailable');
    return databaseUnavailable(domain);
  }
  logger.error({ err, ...where }, 'request failed');
  return internal(domain);
}
