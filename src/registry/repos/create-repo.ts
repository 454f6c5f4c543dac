import { transact } from '../../store/transact.js';
import type { CreateRepoRequest, Repo } from '../../gen/berth/registry/v2/repos_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badRegistryRequest, parentGroupNotFound, repoNameTaken } from '../errors.js';
import { repoNameViolation } from '../names.js';
import { MAX_DESCRIPTION, repoFromRow } from './repo-row.js';

export function repoViolations(name: string, description: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  const n = repoNameViolation(name);
  if (n) out.push(n);
  if (description.length > MAX_DESCRIPTION) out.push({ field: 'description', description: `description must be at most ${MAX_DESCRIPTION} characters` });
  return out;
}

export async function createRepo(deps: ServiceDeps, req: CreateRepoRequest): Promise<Repo> {
  const name = req.repo?.name ?? '';
  const description = req.repo?.description ?? '';
  const bad = repoViolations(name, description);
  if (bad.length > 0) throw badRegistryRequest(bad.map((v) => ({ ...v, field: `repo.${v.field}` })));
  const now = nowIso();
  const row = { uid: newChildUid(req.parent), parent_uid: req.parent, name, description, readme: '', create_time: now, update_time: now };
  await transact(deps.store, async (tx) => {
    const parent = await tx.selectFrom('groups').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (!parent) throw parentGroupNotFound(req.parent);
    const taken = await tx.selectFrom('repos').select('uid').where('parent_uid', '=', req.parent).where('name', '=', name).executeTakeFirst();
    if (taken) throw repoNameTaken(req.parent, name);
    await tx.insertInto('repos').values(row).execute();
  });
  return repoFromRow(row);
}
