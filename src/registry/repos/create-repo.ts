import { transact } from '../../store/transact.js';
import { insertCompiled, runCompiled } from '../../store/compiled-queries.js';
import type { HandlerContext } from '@connectrpc/connect';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { RepoSchema, type CreateRepoRequest, type Repo } from '../../gen/berth/registry/v2/repos_pb.js';
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

export async function createRepo(deps: ServiceDeps, req: CreateRepoRequest, ctx: HandlerContext): Promise<Repo> {
  const name = req.repo?.name ?? '';
  const description = req.repo?.description ?? '';
  const bad = repoViolations(name, description);
  if (bad.length > 0) throw badRegistryRequest(bad.map((v) => ({ ...v, field: `repo.${v.field}` })));
  const now = nowIso();
  const row = { uid: newChildUid(req.parent), parent_uid: req.parent, name, description, readme: '', create_time: now, update_time: now };
  // Compiled once (store/compiled-queries.ts): creates are short, and building
  // three queries per request was a visible share of one.
  await transact(deps.store, async (tx) => {
    const [parent] = await runCompiled(tx, 'group exists', [req.parent], ([p]) =>
      tx
        .selectFrom('groups')
        .select('uid')
        .where('uid', '=', p as string),
    );
    if (!parent) throw parentGroupNotFound(req.parent);
    const [taken] = await runCompiled(tx, 'repo name taken', [req.parent, name], ([p, n]) =>
      tx
        .selectFrom('repos')
        .select('uid')
        .where('parent_uid', '=', p as string)
        .where('name', '=', n as string),
    );
    if (taken) throw repoNameTaken(req.parent, name);
    await insertCompiled(tx, 'repos', row);
    await emitRpcEvent(tx, ctx, { group: req.parent, subject: row.uid, schema: RepoSchema, message: repoFromRow(row) });
  });
  return repoFromRow(row);
}
