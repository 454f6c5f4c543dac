// v1 GetRawSbom: the inventory as an SPDX 2.3 JSON document (spdx-document.ts).
// The guard checked repo.list and sboms.list at the repo before this runs.
import { create } from '@bufbuild/protobuf';
import { type RawSbom, RawSbomSchema, type RawSbomRequest } from '../../gen/berth/registry/v1/registry_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { sbomTarget } from './sbom-target.js';
import { SPDX_MEDIA_TYPE, spdxDocument } from './spdx-document.js';

export async function getRawSbom(deps: ServiceDeps, req: RawSbomRequest): Promise<RawSbom> {
  const inv = await sbomTarget(deps, req.repoId, req.digest);
  const repo = await deps.store.db.selectFrom('repos').select('name').where('uid', '=', req.repoId).executeTakeFirst();
  const doc = spdxDocument(inv, { name: repo?.name ?? req.repoId, digest: req.digest, created: inv.updateTime });
  return create(RawSbomSchema, { rawSbom: JSON.stringify(doc, null, 2), mediaType: SPDX_MEDIA_TYPE });
}
