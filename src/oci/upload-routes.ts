// Blob uploads: POST /v2/<name>/blobs/uploads/ starts one (202 with its
// Location), or pushes a whole blob at once (`?digest=`, 201), or mounts a
// blob from another repo the caller may pull (`?mount=&from=`, 201; without
// `from` only a blob the repo already holds mounts — a digest alone must not
// open another repo's content — else a new upload, 202, as the spec allows).
// /v2/<name>/blobs/uploads/<id>: PATCH appends a chunk (`Content-Range`
// must start where the upload is, else 416), PUT `?digest=` appends the last
// bytes and commits (the store verifies the digest), GET tells how far it
// got, DELETE cancels. The upload's state lives in the blob store and the
// database, so the same URL keeps working across chunks and restarts. A
// completed upload or a mount writes a push event (type blob) in the
// transaction that links the blob; chunks write none. A chunk or commit the
// disk refuses removes the upload and answers 507 (full-disk.ts).
import type { Readable } from 'node:stream';
import { linkCommittedBlob, repoHasBlob } from '../registry/content/blob-links.js';
import { findUpload, forgetUpload, recordUpload } from '../registry/content/upload-sessions.js';
import {
  BlobCollectedError,
  DigestMismatchError,
  UploadNotFoundError,
  UploadOffsetError,
  UploadTooLargeError,
  type UploadInfo,
} from '../registry/blobs/blob-store.js';
import type { Digest } from '../registry/content/digest.js';
import { repoNameViolation } from '../registry/names.js';
import { emitEvent } from '../events/outbox.js';
import { transact } from '../store/transact.js';
import { originOf, pushEvent, type AccessOrigin } from './access-events.js';
import { digestParam } from './blob-routes.js';
import { chunkRange, receivedRange } from './byte-ranges.js';
import { isOciError, OciError } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';
import { existingRepo, repoForPush } from './repo-for-route.js';
import { unlessDiskFull } from './full-disk.js';
import { NAME_PATTERN, type RepoRoute } from './route-table.js';

/** The largest blob Berth takes. */
export const MAX_BLOB_BYTES = 64 * 1024 ** 3;
const UPLOAD_ID_PATTERN = '[A-Za-z0-9_-]{1,128}';

function queryOf(url: string): URLSearchParams {
  const q = url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
}

function uploadLocation(name: string, id: string): string {
  return `/v2/${name}/blobs/uploads/${id}`;
}

function blobLocation(name: string, digest: string): string {
  return `/v2/${name}/blobs/${digest}`;
}

/** Appends the request body to the upload, mapping the store's refusals to the spec's errors. */
async function appendBody(
  ctx: RegistryContext,
  name: string,
  upload: UploadInfo,
  body: Readable,
  range: string | undefined,
  length: string | undefined,
): Promise<UploadInfo> {
  const chunk = chunkRange(range);
  if (chunk === null) throw new OciError('BLOB_UPLOAD_INVALID', 'Content-Range must be <start>-<end>', { 'content-range': (range ?? '').slice(0, 100) });
  const statusHeaders = { location: uploadLocation(name, upload.id), range: receivedRange(upload.size), 'docker-upload-uuid': upload.id };
  if (chunk && chunk.start !== upload.size) {
    throw new OciError('RANGE_INVALID', `the upload is at byte ${upload.size}; a chunk must start there`, undefined, { headers: statusHeaders });
  }
  const declared = length === undefined ? undefined : Number(length);
  if (chunk && declared !== undefined && declared !== chunk.end - chunk.start + 1) {
    throw new OciError('SIZE_INVALID', 'Content-Length does not match Content-Range');
  }
  const room = MAX_BLOB_BYTES - upload.size;
  const limit = chunk ? Math.min(room, chunk.end - chunk.start + 1) : room;
  try {
    return await ctx.blobs.append(upload.id, upload.size, body, limit, 'owned'); // the body's buffers are freed as they are written
  } catch (err) {
    if (err instanceof UploadOffsetError) {
      throw new OciError('RANGE_INVALID', `the upload is at byte ${err.expected}; a chunk must start there`, undefined, {
        headers: { ...statusHeaders, range: receivedRange(err.expected) },
      });
    }
    if (err instanceof UploadTooLargeError)
      throw new OciError('SIZE_INVALID', chunk ? 'the chunk is longer than its Content-Range' : `blobs are at most ${MAX_BLOB_BYTES} bytes`);
    if (err instanceof UploadNotFoundError) throw new OciError('BLOB_UPLOAD_UNKNOWN', undefined, { id: upload.id });
    throw err;
  }
}

/**
 * Commits the upload as `digest` and links the blob to the repo, in that
 * order (a crash between leaves an orphan for gc, never a broken link). When
 * gc deleted identical bytes just as these were committed over them, the
 * link is refused and the client is told to upload again: it is never told a
 * blob is stored that is not.
 */
async function commitUpload(ctx: RegistryContext, origin: AccessOrigin, repoUid: string, id: string, digest: Digest): Promise<void> {
  try {
    const { size } = await ctx.blobs.commit(id, digest);
    await transact(ctx.runtime.store, async (tx) => {
      await linkCommittedBlob(tx, ctx.blobs, repoUid, digest, size);
      await forgetUpload(tx, id);
      await emitEvent(tx, pushEvent(origin, { repoUid, digest: digest.text, type: 'blob' }));
    });
  } catch (err) {
    if (err instanceof DigestMismatchError) throw new OciError('DIGEST_INVALID', undefined, { digest: digest.text });
    if (err instanceof UploadNotFoundError) throw new OciError('BLOB_UPLOAD_UNKNOWN', undefined, { id });
    if (err instanceof BlobCollectedError)
      throw new OciError('BLOB_UPLOAD_UNKNOWN', 'the blob was garbage-collected as it was committed: upload it again', { id });
    throw err;
  }
}

async function startUpload(ctx: RegistryContext, repoUid: string): Promise<UploadInfo> {
  const upload = await ctx.blobs.createUpload();
  try {
    await transact(ctx.runtime.store, (tx) => recordUpload(tx, upload.id, repoUid));
  } catch (err) {
    await ctx.blobs.cancel(upload.id).catch(() => undefined);
    throw err;
  }
  return upload;
}

/**
 * The repo a mount may take a blob from: `from` when the caller may pull there (not with a free-tier token), the repo itself without `from`.
 * The second check of a mount: the route declared push on the target, and only the query names the source, so it is checked here.
 */
async function mountSource(
  ctx: RegistryContext,
  request: Parameters<RegistryContext['authorizeRepo']>[0],
  repoUid: string,
  from: string | null,
): Promise<string | undefined> {
  if (from === null) return repoUid;
  if (repoNameViolation(from)) return undefined;
  try {
    const access = await ctx.authorizeRepo(request, from, 'pull');
    return access.pullTags ? undefined : access.target.repoUid; // a free-tier token mounts nothing
  } catch (err) {
    if (isOciError(err)) return undefined; // not allowed there: an ordinary upload instead, revealing nothing
    throw err;
  }
}

/** Links `digest` from repository `from` (or the repo's own link, renewed) when allowed and held there; false otherwise. */
async function mountFrom(
  ctx: RegistryContext,
  request: Parameters<RegistryContext['authorizeRepo']>[0],
  origin: AccessOrigin,
  repoUid: string,
  digest: Digest,
  from: string | null,
): Promise<boolean> {
  const source = await mountSource(ctx, request, repoUid, from);
  if (source === undefined) return false;
  const stored = await ctx.blobs.stat(digest);
  if (!stored) return false;
  try {
    // One transaction: the source still links the blob, and its bytes are there once the link holds the blob's row
    // (gc deletes bytes only holding it). A blob the repo already links is linked again: the 201 renews gc's grace.
    return await transact(ctx.runtime.store, async (tx) => {
      if (!(await repoHasBlob(tx, source, digest.text))) return false;
      await linkCommittedBlob(tx, ctx.blobs, repoUid, digest, stored.size);
      await emitEvent(tx, pushEvent(origin, { repoUid, digest: digest.text, type: 'blob' }));
      return true;
    });
  } catch (err) {
    if (err instanceof BlobCollectedError) return false; // an ordinary upload instead
    throw err;
  }
}

export function uploadStartRoute(ctx: RegistryContext): RepoRoute {
  return {
    name: 'blob upload start',
    template: '/v2/{name}/blobs/uploads/',
    methods: ['POST'],
    path: new RegExp(`^/v2/(?<name>${NAME_PATTERN})/blobs/uploads/?$`),
    // Push on this repo; a mount's `from` repo needs pull as well, checked in mountSource.
    action: 'push',
    async handle({ request, reply, params, access }) {
      const { name } = params;
      const q = queryOf(request.url);
      const mount = q.get('mount');
      const digestText = q.get('digest');
      const mountDigest = mount === null ? undefined : digestParam(mount);
      const digest = digestText === null ? undefined : digestParam(digestText);
      const repoUid = await repoForPush(ctx, access, request.ip);
      const origin = originOf(request, access);
      if (mountDigest && (await mountFrom(ctx, request, origin, repoUid, mountDigest, q.get('from')))) {
        return reply
          .code(201)
          .headers({ location: blobLocation(name, mountDigest.text), 'docker-content-digest': mountDigest.text, 'content-length': '0' })
          .send();
      }
      const upload = await startUpload(ctx, repoUid);
      if (digest) {
        await unlessDiskFull(ctx, request, upload.id, async () => {
          await appendBody(ctx, name, upload, request.raw, undefined, request.headers['content-length']);
          await commitUpload(ctx, origin, repoUid, upload.id, digest);
        });
        return reply
          .code(201)
          .headers({ location: blobLocation(name, digest.text), 'docker-content-digest': digest.text, 'content-length': '0' })
          .send();
      }
      return reply
        .code(202)
        .headers({ location: uploadLocation(name, upload.id), range: receivedRange(0), 'docker-upload-uuid': upload.id, 'content-length': '0' })
        .send();
    },
  };
}

export function uploadRoute(ctx: RegistryContext): RepoRoute {
  const db = ctx.runtime.store.db;
  /** The upload of this repo named by the path, or BLOB_UPLOAD_UNKNOWN. */
  const uploadOf = async (repoUid: string, id: string): Promise<UploadInfo> => {
    const session = await findUpload(db, id);
    const upload = session && session.repoUid === repoUid ? await ctx.blobs.upload(id) : undefined;
    if (!upload) throw new OciError('BLOB_UPLOAD_UNKNOWN', undefined, { id });
    return upload;
  };
  return {
    name: 'blob upload',
    template: '/v2/{name}/blobs/uploads/{id}',
    methods: ['GET', 'PATCH', 'PUT', 'DELETE'],
    path: new RegExp(`^/v2/(?<name>${NAME_PATTERN})/blobs/uploads/(?<id>${UPLOAD_ID_PATTERN})$`),
    // Every step of a session, even GET (how far it got) and DELETE (cancel), is the pusher's.
    action: 'push',
    async handle({ request, reply, params, access }) {
      const { name, id } = params;
      const repoUid = existingRepo(access);
      const upload = await uploadOf(repoUid, id);
      switch (request.method) {
        case 'GET':
          return reply
            .code(204)
            .headers({ location: uploadLocation(name, id), range: receivedRange(upload.size), 'docker-upload-uuid': id })
            .send();
        case 'DELETE':
          await ctx.blobs.cancel(id);
          await transact(ctx.runtime.store, (tx) => forgetUpload(tx, id));
          return reply.code(204).send();
        case 'PATCH': {
          const after = await unlessDiskFull(ctx, request, id, () =>
            appendBody(ctx, name, upload, request.raw, request.headers['content-range'], request.headers['content-length']),
          );
          return reply
            .code(202)
            .headers({ location: uploadLocation(name, id), range: receivedRange(after.size), 'docker-upload-uuid': id, 'content-length': '0' })
            .send();
        }
        default: {
          const digestText = queryOf(request.url).get('digest');
          if (digestText === null) throw new OciError('DIGEST_INVALID', 'the digest query parameter is required to complete an upload');
          const digest = digestParam(digestText);
          await unlessDiskFull(ctx, request, id, async () => {
            await appendBody(ctx, name, upload, request.raw, request.headers['content-range'], request.headers['content-length']);
            await commitUpload(ctx, originOf(request, access), repoUid, id, digest);
          });
          return reply
            .code(201)
            .headers({ location: blobLocation(name, digest.text), 'docker-content-digest': digest.text, 'content-length': '0' })
            .send();
        }
      }
    },
  };
}
