// Built-in roles have fixed, public, root-level uids that no caller holds any
// capability on, so without this the guard would answer 403 where the
// documented answer is FAILED_PRECONDITION BUILTIN_ROLE. Telling which uids are
// built-in leaks nothing: they are the same in every installation.
import type { Message } from '@bufbuild/protobuf';
import type { Preflights } from '../../auth/authorize.js';
import { isBuiltinRoleUid } from './builtin-roles.js';
import type { DeleteRoleRequest, UpdateRoleRequest } from '../../gen/berth/iam/v2/roles_pb.js';
import { builtinRoleImmutable } from '../errors.js';

function refuseBuiltin(uid: string | undefined): void {
  if (uid !== undefined && isBuiltinRoleUid(uid)) throw builtinRoleImmutable(uid);
}

export const rolePreflights: Preflights = {
  updateRole: (req: Message) => refuseBuiltin((req as UpdateRoleRequest).role?.uid),
  deleteRole: (req: Message) => refuseBuiltin((req as DeleteRoleRequest).uid),
};
