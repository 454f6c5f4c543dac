// GET, HEAD and DELETE /v2/<name>/blobs/<digest> (two routes: pull, delete). A repo reads a blob only
// through its link (pushed or mounted into it); a free-tier token only the
// blobs of what its tags point or pointed to (free-tier.ts). GET honours one
// `Range` (206, or 416 when it cannot be met); the bytes stream from the blob
// store, once the pull event has committed (a HEAD is no pull). DELETE
// unlinks the blob from the repo (202); with --blob-redirect a GET is answered 307 to a presigned URL
// of the object store once the pull is on record; its bytes go when gc finds nothing
// else using them. A blob a stored manifest of the repo still uses is not
// unlinked (403 DENIED, the detail naming the manifests): that image would
// no longer pull.
import type { OutgoingHttpHeaders } from 'node:http';
import { repoBlobSize, unlinkBlob } from '../registry/content/blob-links.js';
import { parseDigest, type Digest } from '../registry/content/digest.js';
import { transact } from '../store/transact.js';
import { originOf, pullEvent } from './access-events.js';
import { auditRegistryDelete } from './delete-audit.js';
import { requestedRange } from './byte-ranges.js';
import { freeTierReaches } from './free-tier.js';
import { OciError } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';
import { existingRepo } from './repo-for-route.js';
import { DIGEST_PATTERN, NAME_PATTERN, type RepoRoute } from './route-table.js';

/** The digest of a path, or DIGEST_INVALID. */
export function digestParam(text: string): Digest {
  const d = parseDigest(text);
  if (!d) throw new OciError('DIGEST_INVALID', 'digests are sha256:<64 hex> or sha512:<128 hex>', { digest: text.slice(0, 200) });
  return d;
}

const BLOB_PATH = new RegExp(`^/v2/(?<name>${NAME_PATTERN})/blobs/(?<digest>${DIGEST_PATTERN})$`);

export function blobDeleteRoute(ctx: RegistryContext): RepoRoute {
  return {
    name: 'blob delete',
    template: '/v2/{name}/blobs/{digest}',
    methods: ['DELETE'],
    path: BLOB_PATH,
    action: 'delete',
    async handle({ request, reply, params, access }) {
      const digest = digestParam(params.digest);
      const repoUid = existingRepo(access);
      const result = await transact(ctx.runtime.store, async (tx) => {
        const r = await unlinkBlob(tx, repoUid, digest.text);
        if (r.unlinked) await auditRegistryDelete(tx, request, access, repoUid, { type: 'blob', reference: digest.text });
        return r;
      });
      if (result.usedBy) {
        throw new OciError('DENIED', 'the blob is used by a manifest of this repository; delete the manifest first', {
          digest: digest.text,
          usedBy: result.usedBy,
        });
      }
      if (!result.unlinked) throw new OciError('BLOB_UNKNOWN', undefined, { digest: digest.text });
      return reply.code(202).header('content-length', '0').send();
    },
  };
}

export function blobReadRoute(ctx: RegistryContext): RepoRoute {
  const db = ctx.runtime.store.db;
  return {
    name: 'blob read',
    template: '/v2/{name}/blobs/{digest}',
    methods: ['GET', 'HEAD'],
    path: BLOB_PATH,
    action: 'pull',
    async handle({ request, reply, params, access }) {
      const digest = digestParam(params.digest);
      const repoUid = existingRepo(access);
      if (access.pullTags && !(await freeTierReaches(db, repoUid, access.pullTags, digest.text, 'blob'))) {
        throw new OciError('DENIED', `this token reaches only what the tags ${access.pullTags.join(', ')} of ${params.name} point or pointed to`);
      }
      const size = await repoBlobSize(db, repoUid, digest.text);
      const stored = size === undefined ? undefined : await ctx.blobs.stat(digest);
      if (size === undefined || stored === undefined) throw new OciError('BLOB_UNKNOWN', undefined, { digest: digest.text });
      if (request.method === 'GET' && ctx.blobs.redirectUrl) {
        // --blob-redirect: the client fetches the bytes (and any Range of them) from the object store, as distribution's redirect middleware.
        const url = await ctx.blobs.redirectUrl(digest);
        if (url !== undefined) {
          await ctx.pullEvents.record(pullEvent(originOf(request, access), { repoUid, digest: digest.text, type: 'blob', method: 'GET' }));
          return reply.code(307).header('location', url).header('docker-content-digest', digest.text).header('content-length', '0').send();
        }
      }
      reply.header('docker-content-digest', digest.text).header('accept-ranges', 'bytes').header('content-type', 'application/octet-stream');
      reply.header('etag', `"${digest.text}"`);
      const range = requestedRange(request.headers.range, stored.size);
      if (range.kind === 'unsatisfiable') {
        throw new OciError('RANGE_INVALID', `the range cannot be met by a blob of ${stored.size} bytes`, undefined, {
          headers: { 'content-range': `bytes */${stored.size}` },
        });
      }
      const [start, end] = range.kind === 'range' ? [range.start, range.end + 1] : [0, stored.size];
      if (range.kind === 'range') reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${stored.size}`);
      else reply.code(200);
      reply.header('content-length', String(end - start));
      if (request.method === 'HEAD') return reply.send();
      // The pull is on record before the first byte goes out (pull-event-log.ts).
      await ctx.pullEvents.record(pullEvent(originOf(request, access), { repoUid, digest: digest.text, type: 'blob', method: 'GET' }));
      // The bytes go straight to the socket (blob-store.ts copyTo: no
      // buffer per read); Fastify steps aside once the head is written.
      reply.hijack();
      const res = reply.raw;
      res.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
      try {
        if (!(await ctx.blobs.copyTo(digest, { offset: start, end }, res))) throw new Error(`blob ${digest.text} vanished before it was read`);
        res.end();
      } catch (err) {
        // The status and length are sent: all that is left is to cut the connection, so the client sees a short body.
        request.log.warn({ err, digest: digest.text }, 'blob pull cut short');
        res.destroy();
      }
      return reply;
    },
  };
}
