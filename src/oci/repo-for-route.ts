// The repository a registry route works on, once authorized: an existing one
// (else NAME_UNKNOWN, answered only after the permission check), or for a
// push, one created on the spot in the organization by the repo writer —
// authorizeRepo has already checked repo.create there when the repo did not
// exist — with its repo.created event.
import { Code, ConnectError } from '@connectrpc/connect';
import { writeRepo } from '../registry/repos/repo-writer.js';
import { transact } from '../store/transact.js';
import type { RegistryAccess } from './authorize-repo.js';
import { OciError } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';
import { resolveRepoTarget } from './repo-target.js';

/** The uid of the repository the request names; NAME_UNKNOWN when there is none. */
export function existingRepo(access: RegistryAccess): string {
  const uid = access.target.repoUid;
  if (uid === undefined) throw new OciError('NAME_UNKNOWN', undefined, { name: access.target.name });
  return uid;
}

/** The repository a push goes to, created in its organization if it does not exist yet (`from`: the pusher's address, for the audit log). */
export async function repoForPush(ctx: RegistryContext, access: RegistryAccess, from: string): Promise<string> {
  const { target } = access;
  if (target.repoUid !== undefined) return target.repoUid;
  const orgUid = target.orgUid;
  if (orgUid === undefined) throw new OciError('NAME_UNKNOWN', undefined, { name: target.name });
  try {
    const row = await transact(ctx.runtime.store, (tx) =>
      writeRepo(tx, { parent: orgUid, name: target.path, description: '' }, { pushedBy: access.subject, from }),
    );
    return row.uid;
  } catch (err) {
    if (!(err instanceof ConnectError && err.code === Code.AlreadyExists)) throw err;
    // A concurrent push created it first: use that one.
    const again = await resolveRepoTarget(ctx.runtime.store.db, target.name);
    if (again.repoUid === undefined) throw err;
    return again.repoUid;
  }
}
