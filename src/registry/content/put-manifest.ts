// Stores a parsed manifest in a repo, with what it lists. Refused, with
// nothing written, when the repo does not hold every blob the manifest needs
// or every child manifest an index lists (MANIFEST_BLOB_UNKNOWN, as the
// distribution spec allows), or when a descriptor's size differs from what is
// stored (SIZE_INVALID): the platform size queries add these sizes up, so they
// must be the real ones. A subject need not exist (the spec requires that).
// Putting a manifest the repo already holds changes nothing but its
// push_time (gc's grace counts from the latest put).
// The checks and the insert run under the repo's content lock
// (repo-content-lock.ts), so gc cannot take a blob link or a child manifest
// away between them: a manifest is stored only with everything it lists.
import { nowIso } from '../../core/clock.js';
import type { Tx } from '../../store/transact.js';
import type { ManifestRefsTable } from '../registry-tables.js';
import { lockRepoContent } from './repo-content-lock.js';
import { isPlatformWord, type Descriptor, type Platform } from './descriptor.js';
import { digestOf, parseDigest } from './digest.js';
import type { ParsedManifest } from './manifest.js';
import type { ManifestObserver } from './manifest-observer.js';
import { statementChunks } from '../../store/statement-chunks.js';

export interface PutManifestOptions {
  /** For an image manifest: the platform its config declares (see config-platform.ts); ignored for indexes and when malformed. */
  platform?: Platform;
  now?: string;
  /** Told of the manifest, in `tx`, when this put creates it (manifest-observer.ts). */
  observer?: ManifestObserver;
}

export type PutManifestFailure =
  | { code: 'MANIFEST_BLOB_UNKNOWN'; message: string; digests: string[] }
  | { code: 'SIZE_INVALID'; message: string; digests: string[] };

export type PutManifestResult = { ok: true; created: boolean } | { ok: false; failure: PutManifestFailure };

/** Stored sizes of the listed digests the repo holds, as blobs or as manifests. */
async function storedSizes(tx: Tx, repoUid: string, digests: string[], as: 'blob' | 'manifest'): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of statementChunks([...new Set(digests)])) {
    const rows =
      as === 'blob'
        ? await tx
            .selectFrom('repo_blobs')
            .innerJoin('blobs', 'blobs.digest', 'repo_blobs.digest')
            .select(['blobs.digest', 'blobs.size'])
            .where('repo_blobs.repo_uid', '=', repoUid)
            .where('repo_blobs.digest', 'in', part)
            .execute()
        : await tx.selectFrom('manifests').select(['digest', 'size']).where('repo_uid', '=', repoUid).where('digest', 'in', part).execute();
    for (const r of rows) out.set(r.digest, Number(r.size));
  }
  return out;
}

function check(needed: Descriptor[], stored: Map<string, number>, missing: Set<string>, mismatched: Set<string>): void {
  for (const d of needed) {
    const size = stored.get(d.digest);
    if (size === undefined) missing.add(d.digest);
    else if (size !== d.size) mismatched.add(d.digest);
  }
}

function validPlatform(p: Platform | undefined): Platform | undefined {
  if (!p || !isPlatformWord(p.os) || !isPlatformWord(p.architecture)) return undefined;
  return { os: p.os, architecture: p.architecture, variant: isPlatformWord(p.variant) ? p.variant : undefined };
}

function refRows(repoUid: string, digest: string, m: ParsedManifest): ManifestRefsTable[] {
  const row = (position: number, d: Descriptor, kind: 'blob' | 'manifest'): ManifestRefsTable => ({
    repo_uid: repoUid,
    manifest_digest: digest,
    position,
    child_digest: d.digest,
    kind,
    media_type: d.mediaType,
    size: d.size,
    os: d.platform?.os ?? null,
    architecture: d.platform?.architecture ?? null,
    variant: d.platform?.variant ?? null,
  });
  if (m.kind === 'index') return m.manifests.map((d, i) => row(i, d, 'manifest'));
  return [row(0, m.config as Descriptor, 'blob'), ...m.layers.map((d, i) => row(i + 1, d, 'blob'))];
}

/**
 * Stores `bytes` (which must hash to `digest`) as a manifest of the repo.
 * `created` is false when the repo already held it. The repo must exist.
 */
export async function putManifest(
  tx: Tx,
  repoUid: string,
  digest: string,
  parsed: ParsedManifest,
  bytes: Uint8Array,
  opts: PutManifestOptions = {},
): Promise<PutManifestResult> {
  const d = parseDigest(digest);
  if (!d || digestOf(bytes, d.algorithm) !== digest) throw new TypeError(`manifest bytes do not hash to ${digest.slice(0, 140)}`);
  const platform = parsed.kind === 'image' ? validPlatform(opts.platform) : undefined;
  const now = opts.now ?? nowIso();
  await lockRepoContent(tx, repoUid, 'share');
  const held = await tx.selectFrom('manifests').select('architecture').where('repo_uid', '=', repoUid).where('digest', '=', digest).executeTakeFirst();
  if (held) {
    const learned = platform && held.architecture === null ? { os: platform.os, architecture: platform.architecture, variant: platform.variant ?? null } : {};
    await tx
      .updateTable('manifests')
      .set({ push_time: now, ...learned })
      .where('repo_uid', '=', repoUid)
      .where('digest', '=', digest)
      .execute();
    return { ok: true, created: false };
  }

  const missing = new Set<string>();
  const mismatched = new Set<string>();
  check(
    parsed.blobs,
    await storedSizes(
      tx,
      repoUid,
      parsed.blobs.map((b) => b.digest),
      'blob',
    ),
    missing,
    mismatched,
  );
  check(
    parsed.manifests,
    await storedSizes(
      tx,
      repoUid,
      parsed.manifests.map((m) => m.digest),
      'manifest',
    ),
    missing,
    mismatched,
  );
  if (missing.size > 0) {
    return {
      ok: false,
      failure: { code: 'MANIFEST_BLOB_UNKNOWN', message: 'the repo does not hold every blob and manifest this manifest lists', digests: [...missing] },
    };
  }
  if (mismatched.size > 0) {
    return { ok: false, failure: { code: 'SIZE_INVALID', message: 'a descriptor size differs from the stored content', digests: [...mismatched] } };
  }

  const inserted = await tx
    .insertInto('manifests')
    .values({
      repo_uid: repoUid,
      digest,
      media_type: parsed.mediaType,
      artifact_type: parsed.artifactType ?? null,
      subject_digest: parsed.subject ?? null,
      size: bytes.byteLength,
      content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      annotations: parsed.annotations ? JSON.stringify(parsed.annotations) : null,
      os: platform?.os ?? null,
      architecture: platform?.architecture ?? null,
      variant: platform?.variant ?? null,
      create_time: now,
      push_time: now,
    })
    .onConflict((oc) => oc.columns(['repo_uid', 'digest']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return { ok: true, created: false }; // a concurrent put won
  for (const part of statementChunks(refRows(repoUid, digest, parsed))) await tx.insertInto('manifest_refs').values(part).execute();
  await opts.observer?.manifestCreated(tx, {
    repoUid,
    digest,
    mediaType: parsed.mediaType,
    kind: parsed.kind,
    ...(parsed.artifactType === undefined ? {} : { artifactType: parsed.artifactType }),
    ...(parsed.subject === undefined ? {} : { subjectDigest: parsed.subject }),
  });
  return { ok: true, created: true };
}
