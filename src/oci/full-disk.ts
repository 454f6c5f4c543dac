// An upload whose bytes the disk refused (ENOSPC, SQLITE_FULL): its bytes and
// its session are removed, so a full disk keeps no partial uploads, and the
// client is answered 507 UNAVAILABLE with Retry-After, told to start again
// (the upload's URL answers BLOB_UPLOAD_UNKNOWN from then on).
import type { FastifyRequest } from 'fastify';
import { forgetUpload } from '../registry/content/upload-sessions.js';
import { isStorageFull } from '../store/storage-full.js';
import { transact } from '../store/transact.js';
import { type OciError, outOfStorage } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';

/** Runs one write step of upload `id`; on a full disk removes the upload and throws the 507 to answer. */
export async function unlessDiskFull<T>(ctx: RegistryContext, request: FastifyRequest, id: string, write: () => Promise<T>): Promise<T> {
  try {
    const done = await write();
    ctx.runtime.storage.noteWritten();
    return done;
  } catch (err) {
    if (!isStorageFull(err)) throw err;
    throw await abandonUpload(ctx, request, id, err);
  }
}

async function abandonUpload(ctx: RegistryContext, request: FastifyRequest, id: string, err: unknown): Promise<OciError> {
  ctx.runtime.storage.noteFull(err, { method: request.method, path: request.url.split('?')[0] });
  await ctx.blobs.cancel(id).catch((e: unknown) => ctx.logger.warn({ err: e, upload: id }, 'could not remove an upload the disk refused'));
  // The database may be full too; a session whose bytes are gone answers BLOB_UPLOAD_UNKNOWN all the same.
  await transact(ctx.runtime.store, (tx) => forgetUpload(tx, id)).catch(() => undefined);
  return outOfStorage('the server is out of storage: the upload was removed; start it again later', { id });
}
