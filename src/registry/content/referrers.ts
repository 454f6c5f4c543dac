// The referrers API's answer from the database: the manifests of a repo whose
// subject is a digest, as descriptors (mediaType, digest, size, artifactType,
// annotations), optionally only those of one artifactType. The artifactType
// stored is already the one the spec says to report (see ParsedManifest).
import type { Executor } from '../../store/transact.js';

/** The most referrers one call returns. */
export const MAX_REFERRERS = 1000;

export interface ReferrerDescriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
}

export interface ReferrersQuery {
  artifactType?: string;
  /** Default and maximum MAX_REFERRERS. */
  limit?: number;
}

/** Manifests of the repo naming `subjectDigest` as subject, oldest first. */
export async function listReferrers(ex: Executor, repoUid: string, subjectDigest: string, q: ReferrersQuery = {}): Promise<ReferrerDescriptor[]> {
  const limit = Math.max(0, Math.min(Math.trunc(q.limit ?? MAX_REFERRERS), MAX_REFERRERS));
  if (limit === 0) return [];
  let query = ex
    .selectFrom('manifests')
    .select(['media_type', 'digest', 'size', 'artifact_type', 'annotations'])
    .where('repo_uid', '=', repoUid)
    .where('subject_digest', '=', subjectDigest);
  if (q.artifactType !== undefined && q.artifactType !== '') query = query.where('artifact_type', '=', q.artifactType);
  const rows = await query.orderBy('create_time').orderBy('digest').limit(limit).execute();
  return rows.map((r) => {
    const d: ReferrerDescriptor = { mediaType: r.media_type, digest: r.digest, size: Number(r.size) };
    if (r.artifact_type !== null) d.artifactType = r.artifact_type;
    if (r.annotations !== null) d.annotations = JSON.parse(r.annotations) as Record<string, string>;
    return d;
  });
}
