// Every failure on the registry listener leaves as an OciError: raised on
// purpose, passed through; a database or blob store that cannot be reached,
// 503 UNAVAILABLE with Retry-After; a full disk, 507 UNAVAILABLE with Retry-After
// (noted for /healthz, the path logged); a body Fastify could not take, 413 or 400;
// anything else is logged here and answered 500 UNKNOWN without its cause.
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { BlobStoreUnavailableError } from '../registry/blobs/blob-store.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { StorageHealth } from '../runtime/storage-health.js';
import { isStorageFull } from '../store/storage-full.js';
import { OciError, outOfStorage } from './oci-errors.js';

export function toOciError(err: unknown, logger: Logger, where: { method: string; path: string }, storage?: StorageHealth): OciError {
  if (err instanceof OciError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new OciError('SIZE_INVALID', 'the request body is too large', undefined, { status: 413 });
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP')) return new OciError('REQUEST_INVALID', 'the request body could not be read');
  if (isDatabaseUnavailable(err)) {
    logger.warn({ err, ...where }, 'database unavailable');
    return new OciError('UNAVAILABLE', 'the database is unavailable; retry shortly');
  }
  if (err instanceof BlobStoreUnavailableError) {
    logger.warn({ err, ...where }, 'blob store unavailable');
    return new OciError('UNAVAILABLE', 'the blob store is unavailable; retry shortly');
  }
  if (isStorageFull(err)) {
    if (storage) storage.noteFull(err, where);
    else logger.error({ code, ...where }, 'storage full');
    return outOfStorage();
  }
  logger.error({ err, ...where }, 'registry request failed');
  return new OciError('UNKNOWN', 'the server could not complete the request');
}

export function sendOciError(reply: FastifyReply, err: OciError): FastifyReply {
  return reply.code(err.status).headers(err.headers).header('content-type', 'application/json').send(JSON.stringify(err.body()));
}
