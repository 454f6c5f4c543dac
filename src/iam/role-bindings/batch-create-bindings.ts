import { transact } from '../../store/transact.js';
import type { HandlerContext } from '@connectrpc/connect';
import {
  BatchCreateRoleBindingsResponseSchema,
  type BatchCreateRoleBindingsRequest,
  type BatchCreateRoleBindingsResponse,
} from '../../gen/berth/iam/v2/role_bindings_pb.js';
import { create } from '@bufbuild/protobuf';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { callerOf } from '../../auth/caller.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isSelfOrBelow, isValidUid } from '../../core/uidp.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { loadHydrated } from './binding-row.js';
import { insertBinding, requiredViolations, scopeViolations, type NewBinding } from './binding-rules.js';

export const MAX_BATCH = 25;

/** Resolves inheritance (parent, role) and checks the shape of the whole batch before touching the database. */
function plan(req: BatchCreateRoleBindingsRequest): NewBinding[] {
  if (req.requests.length === 0) throw badIamRequest([{ field: 'requests', description: 'at least one request is required' }]);
  if (req.requests.length > MAX_BATCH) throw badIamRequest([{ field: 'requests', description: `at most ${MAX_BATCH} requests per batch` }]);
  const violations: FieldViolation[] = [];
  const out = req.requests.map((r, i): NewBinding => {
    const field = `requests[${i}]`;
    const parent = r.parent === '' ? req.parent : r.parent;
    if (!isValidUid(parent) || !isSelfOrBelow(parent, req.parent)) {
      violations.push({ field: `${field}.parent`, description: 'must be the batch parent or a group below it' });
    }
    const own = r.roleBinding?.roleUid ?? '';
    if (own !== '' && req.roleUid !== '' && own !== req.roleUid) {
      violations.push({ field: `${field}.role_binding.role_uid`, description: 'differs from the batch role_uid' });
    }
    return { parent, identityUid: r.roleBinding?.identityUid ?? '', roleUid: own === '' ? req.roleUid : own, field: `${field}.role_binding` };
  });
  // Uid-only rules for the whole batch before anything is read.
  for (const b of out) {
    const shape = requiredViolations(b);
    violations.push(...(shape.length > 0 || !isValidUid(b.parent) ? shape : scopeViolations(b)));
  }
  if (violations.length > 0) throw badIamRequest(violations);
  return out;
}

/** All or none: every binding is validated and inserted in one transaction, with one event for the batch (its subject the batch's parent). */
export async function batchCreateRoleBindings(
  deps: ServiceDeps,
  req: BatchCreateRoleBindingsRequest,
  ctx: HandlerContext,
): Promise<BatchCreateRoleBindingsResponse> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const bindings = plan(req);
  return transact(deps.store, async (tx) => {
    const uids: string[] = [];
    for (const b of bindings) uids.push((await insertBinding(tx, caller, b)).uid);
    const res = create(BatchCreateRoleBindingsResponseSchema, { roleBindings: await Promise.all(uids.map((u) => loadHydrated(tx, u))) });
    await emitRpcEvent(tx, ctx, { group: req.parent, subject: req.parent, schema: BatchCreateRoleBindingsResponseSchema, message: res });
    return res;
  });
}
