// A v1 Delete is its v2 twin, with v1's failure when dependents block it: v2
// says which precondition failed (PreconditionFailure RESOURCE_NOT_EMPTY or
// RESOURCE_IN_USE); v1 answers FAILED_PRECONDITION with its message only.
import { Code, ConnectError } from '@connectrpc/connect';
import { PreconditionFailureSchema } from '../../gen/google/rpc/error_details_pb.js';
import { messagePrefix } from '../../core/error-codes.js';
import { deleteBlockedV1 } from '../errors.js';

const BLOCKED = new Set(['RESOURCE_NOT_EMPTY', 'RESOURCE_IN_USE']);

export async function deleteV1(v2Delete: () => Promise<unknown>): Promise<Record<string, never>> {
  try {
    await v2Delete();
  } catch (err) {
    throw v1Failure(err);
  }
  return {};
}

function v1Failure(err: unknown): unknown {
  if (!(err instanceof ConnectError) || err.code !== Code.FailedPrecondition) return err;
  const blocked = err.findDetails(PreconditionFailureSchema).some((d) => d.violations.some((v) => BLOCKED.has(v.type)));
  if (!blocked) return err;
  const prefix = `${messagePrefix(Code.FailedPrecondition)}: `;
  return deleteBlockedV1(err.rawMessage.startsWith(prefix) ? err.rawMessage.slice(prefix.length) : err.rawMessage);
}
