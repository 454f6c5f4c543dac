// v1 GetManifestDigestCount: the distinct manifest digests held by the repo
// parent_id names, or by every repo below the group it names (one digest in
// two repos counts once). The guard checked manifest.metadata.list there; a
// uid nothing lies at counts 0, v1's empty answer.
import { create } from '@bufbuild/protobuf';
import { ManifestDigestCountSchema, type ManifestDigestCount, type ManifestDigestCountFilter } from '../../gen/berth/registry/v1/registry_pb.js';
import { descendantRange } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';

export async function getManifestDigestCount(deps: ServiceDeps, req: ManifestDigestCountFilter): Promise<ManifestDigestCount> {
  const below = descendantRange(req.parentId);
  const row = await deps.store.db
    .selectFrom('manifests')
    .select((eb) => eb.fn.count<number | string | bigint>('digest').distinct().as('n'))
    .where((eb) => eb.or([eb('repo_uid', '=', req.parentId), eb.and([eb('repo_uid', '>=', below.low), eb('repo_uid', '<', below.high)])]))
    .executeTakeFirstOrThrow();
  return create(ManifestDigestCountSchema, { count: BigInt(row.n) });
}
