// GET, HEAD, PUT and DELETE /v2/<name>/manifests/<tag or digest>: three
// routes on one path, one per action (pull, push, delete).
// PUT parses and checks the manifest (every blob and child manifest it needs
// must be in the repo; a subject need not be), stores it, moves the tag when
// the reference is one and writes the push event — all in one transaction, so
// neither the tag history nor a subscriber misses a push. GET and HEAD write
// their pull event before answering (pull-event-log.ts). A digest reference must be the body's digest.
// DELETE by digest removes the manifest and its tags, unless a stored index
// of the repo lists it (403 DENIED naming the indexes; delete-manifest.ts).
// The platform of a single image is read from its config blob here, so the
// Images API answers from the database alone.
import { repoHasBlob } from '../registry/content/blob-links.js';
import { configHasPlatform, MAX_CONFIG_READ } from '../registry/content/config-platform.js';
import { deleteManifest } from '../registry/content/delete-manifest.js';
import type { Platform } from '../registry/content/descriptor.js';
import { digestOf, parseDigest } from '../registry/content/digest.js';
import { getManifest, statManifest, type StoredManifest } from '../registry/content/get-manifest.js';
import { parseManifest, type ParsedManifest } from '../registry/content/manifest.js';
import { putManifest } from '../registry/content/put-manifest.js';
import { resolveReference } from '../registry/content/resolve-reference.js';
import { removeTag, setTag } from '../registry/tags/tag-writer.js';
import { emitEvent } from '../events/outbox.js';
import { transact } from '../store/transact.js';
import { originOf, pullEvent, pushEvent } from './access-events.js';
import { ConfigPlatforms } from './config-platforms.js';
import { auditRegistryDelete } from './delete-audit.js';
import { freeTierReaches } from './free-tier.js';
import { OciError } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';
import { existingRepo, repoForPush } from './repo-for-route.js';
import { MANIFEST_BODY_LIMIT } from './request-body.js';
import { NAME_PATTERN, type RepoRoute } from './route-table.js';

const REFERENCE_SEGMENT = '[^/]{1,256}';
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** What a config blob says of its platform, when it is an image config small enough to read that the repo holds. */
async function platformOf(ctx: RegistryContext, configs: ConfigPlatforms, repoUid: string, m: ParsedManifest): Promise<Platform | undefined> {
  const config = m.config;
  if (!config || !configHasPlatform(config.mediaType) || config.size > MAX_CONFIG_READ) return undefined;
  const digest = parseDigest(config.digest);
  if (!digest || !(await repoHasBlob(ctx.runtime.store.db, repoUid, digest.text))) return undefined;
  return configs.of(digest);
}

/** Where a manifest lives: any reference segment (one neither a tag nor a digest is unknown, 404, as the conformance suite expects). */
const MANIFEST_PATH = new RegExp(`^/v2/(?<name>${NAME_PATTERN})/manifests/(?<reference>${REFERENCE_SEGMENT})$`);

export function manifestReadRoute(ctx: RegistryContext): RepoRoute {
  const db = ctx.runtime.store.db;
  return {
    name: 'manifest read',
    template: '/v2/{name}/manifests/{reference}',
    methods: ['GET', 'HEAD'],
    path: MANIFEST_PATH,
    action: 'pull',
    async handle({ request, reply, params, access }) {
      const { name, reference } = params;
      const repoUid = existingRepo(access);
      if (access.pullTags && !parseDigest(reference) && !access.pullTags.includes(reference)) {
        throw new OciError('DENIED', `this token reaches only the tags ${access.pullTags.join(', ')} of ${name}`);
      }
      const digest = await resolveReference(db, repoUid, reference);
      // By tag, a free tag resolves to what it points to now; by digest, free-tier.ts decides.
      if (digest !== undefined && access.pullTags && parseDigest(reference) && !(await freeTierReaches(db, repoUid, access.pullTags, digest, 'manifest'))) {
        throw new OciError('DENIED', `this token reaches only what the tags ${access.pullTags.join(', ')} of ${name} point or pointed to`);
      }
      const head = request.method === 'HEAD';
      const found = digest === undefined ? undefined : head ? await statManifest(db, repoUid, digest) : await getManifest(db, repoUid, digest);
      if (!found) throw new OciError('MANIFEST_UNKNOWN', undefined, { reference: reference.slice(0, 200) });
      const tag = parseDigest(reference) ? {} : { tag: reference };
      await ctx.pullEvents.record(
        pullEvent(originOf(request, access), { repoUid, digest: found.digest, type: 'manifest', method: head ? 'HEAD' : 'GET', ...tag }),
      );
      reply
        .code(200)
        .headers({ 'content-type': found.mediaType, 'docker-content-digest': found.digest, etag: `"${found.digest}"`, 'content-length': String(found.size) });
      if (head || !('content' in found)) return reply.send();
      const content = (found as StoredManifest).content;
      return reply.send(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
    },
  };
}

export function manifestPutRoute(ctx: RegistryContext): RepoRoute {
  const configs = new ConfigPlatforms(ctx.blobs);
  return {
    name: 'manifest put',
    template: '/v2/{name}/manifests/{reference}',
    methods: ['PUT'],
    path: MANIFEST_PATH,
    action: 'push',
    bodyLimit: MANIFEST_BODY_LIMIT,
    async handle({ request, reply, params, readBody, access }) {
      const { name, reference } = params;
      const asDigest = parseDigest(reference);
      if (!asDigest && !TAG.test(reference))
        throw new OciError('MANIFEST_INVALID', 'the reference must be a tag or a digest', { reference: reference.slice(0, 200) });
      const bytes = await readBody();
      const parsed = parseManifest(bytes, request.headers['content-type']);
      if (!parsed.ok) throw new OciError(parsed.failure.code, parsed.failure.message, parsed.failure.detail);
      const digest = digestOf(bytes, asDigest?.algorithm ?? 'sha256');
      if (asDigest && asDigest.text !== digest) throw new OciError('DIGEST_INVALID', `the manifest's digest is ${digest}`, { digest: reference });
      const repoUid = await repoForPush(ctx, access, request.ip);
      const platform = await platformOf(ctx, configs, repoUid, parsed.manifest);
      const result = await transact(ctx.runtime.store, async (tx) => {
        const r = await putManifest(tx, repoUid, digest, parsed.manifest, bytes, { platform, observer: ctx.manifestObserver });
        if (!r.ok) return r;
        if (!asDigest) await setTag(tx, repoUid, reference, digest);
        await emitEvent(tx, pushEvent(originOf(request, access), { repoUid, digest, type: 'manifest', ...(asDigest ? {} : { tag: reference }) }));
        return r;
      });
      if (!result.ok) {
        throw new OciError(result.failure.code, result.failure.message, { digests: result.failure.digests.slice(0, 20) });
      }
      reply.code(201).headers({ location: `/v2/${name}/manifests/${digest}`, 'docker-content-digest': digest, 'content-length': '0' });
      if (parsed.manifest.subject) reply.header('oci-subject', parsed.manifest.subject);
      return reply.send();
    },
  };
}

export function manifestDeleteRoute(ctx: RegistryContext): RepoRoute {
  return {
    name: 'manifest delete',
    template: '/v2/{name}/manifests/{reference}',
    methods: ['DELETE'],
    path: MANIFEST_PATH,
    action: 'delete',
    async handle({ request, reply, params, access }) {
      const { reference } = params;
      const repoUid = existingRepo(access);
      const asDigest = parseDigest(reference);
      const done = await transact(ctx.runtime.store, async (tx) => {
        const r = asDigest ? await deleteManifest(tx, repoUid, asDigest.text) : { deleted: (await removeTag(tx, repoUid, reference)) !== undefined };
        if (r.deleted) await auditRegistryDelete(tx, request, access, repoUid, { type: asDigest ? 'manifest' : 'tag', reference });
        return r;
      });
      if ('listedBy' in done && done.listedBy) {
        throw new OciError('DENIED', 'the manifest is listed by an index of this repository; delete the index first', {
          digest: reference,
          listedBy: done.listedBy,
        });
      }
      if (!done.deleted) throw new OciError('MANIFEST_UNKNOWN', undefined, { reference: reference.slice(0, 200) });
      return reply.code(202).header('content-length', '0').send();
    },
  };
}
