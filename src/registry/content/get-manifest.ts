// Reading one manifest of a repo by digest: with its bytes (GET) or without
// them (HEAD, existence checks), so a HEAD never loads up to 4 MiB.
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';
import type { Executor } from '../../store/transact.js';

const STAT_MANIFEST = compiledQuery('stat manifest');
const GET_MANIFEST = compiledQuery('get manifest');

export interface ManifestInfo {
  digest: string;
  mediaType: string;
  size: number;
  artifactType?: string;
  subject?: string;
  createTime: string;
}

export interface StoredManifest extends ManifestInfo {
  /** The exact bytes pushed. */
  content: Uint8Array;
}

const INFO = ['digest', 'media_type', 'size', 'artifact_type', 'subject_digest', 'create_time'] as const;

interface InfoRow {
  digest: string;
  media_type: string;
  size: number;
  artifact_type: string | null;
  subject_digest: string | null;
  create_time: string;
}

function info(r: InfoRow): ManifestInfo {
  const out: ManifestInfo = { digest: r.digest, mediaType: r.media_type, size: Number(r.size), createTime: r.create_time };
  if (r.artifact_type !== null) out.artifactType = r.artifact_type;
  if (r.subject_digest !== null) out.subject = r.subject_digest;
  return out;
}

/** The manifest without its bytes, or undefined when the repo does not hold it. */
export async function statManifest(ex: Executor, repoUid: string, digest: string): Promise<ManifestInfo | undefined> {
  // Compiled once (store/compiled-queries.ts): a registry read runs this per request.
  const [row] = await runCompiled<InfoRow>(ex, STAT_MANIFEST, [repoUid, digest], ([r, d]) =>
    ex
      .selectFrom('manifests')
      .select(INFO)
      .where('repo_uid', '=', r as string)
      .where('digest', '=', d as string),
  );
  return row === undefined ? undefined : info(row);
}

/** The manifest with its bytes, or undefined when the repo does not hold it. */
export async function getManifest(ex: Executor, repoUid: string, digest: string): Promise<StoredManifest | undefined> {
  const [row] = await runCompiled<InfoRow & { content: Uint8Array }>(ex, GET_MANIFEST, [repoUid, digest], ([r, d]) =>
    ex
      .selectFrom('manifests')
      .select([...INFO, 'content'])
      .where('repo_uid', '=', r as string)
      .where('digest', '=', d as string),
  );
  return row === undefined ? undefined : { ...info(row), content: new Uint8Array(row.content.buffer, row.content.byteOffset, row.content.byteLength) };
}
