// GetAdvisory: the guard has checked advisories.list at the uid, so a caller
// without it learns nothing of whether the advisory exists.
import type { Advisory, GetAdvisoryRequest } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { advisoriesFromRows, loadAdvisoryRow } from './advisory-read.js';

export async function getAdvisory(deps: ServiceDeps, req: GetAdvisoryRequest): Promise<Advisory> {
  const row = await loadAdvisoryRow(deps.store.db, req.uid);
  const [advisory] = await advisoriesFromRows(deps.store.db, [row]);
  return advisory;
}
