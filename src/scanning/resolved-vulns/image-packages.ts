// The OS package names of an image, as advisories name packages: each
// installed apk or deb package's name and its origin (source) name, from the
// stored inventory of the image manifest, or of every image an index lists.
import { statementChunks } from '../../store/statement-chunks.js';
import type { Executor } from '../../store/transact.js';

/** Package types advisories of the feed (and the v1 advisory API) are written for. */
const OS_TYPES = ['apk', 'deb'];

export async function imagePackageNames(ex: Executor, repoUid: string, digest: string): Promise<Set<string>> {
  const children = await ex
    .selectFrom('manifest_refs')
    .select('child_digest')
    .where('repo_uid', '=', repoUid)
    .where('manifest_digest', '=', digest)
    .where('kind', '=', 'manifest')
    .execute();
  const digests = [digest, ...children.map((c) => c.child_digest)];
  const names = new Set<string>();
  for (const part of statementChunks(digests)) {
    const rows = await ex
      .selectFrom('scan_packages')
      .select(['name', 'source_name'])
      .distinct()
      .where('digest', 'in', part)
      .where('type', 'in', OS_TYPES)
      .execute();
    for (const r of rows) {
      names.add(r.name);
      if (r.source_name) names.add(r.source_name);
    }
  }
  return names;
}
