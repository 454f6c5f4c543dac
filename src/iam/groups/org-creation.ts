// Who may create a root organization. A new organization is owned by its
// creator, so the creator must be a root-level identity: one created under an
// organization is scoped to it and can hold no role outside it. Beyond that,
// the operator's policy: by default only identities that own an existing
// organization (every capability of the owner role at a root group) — a role
// that merely includes groups.create, such as registry.push, is not enough.
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { Caller } from '../../auth/caller.js';
import { builtinRoleByName } from '../roles/builtin-roles.js';
import { parentOf } from '../../core/uidp.js';
import type { OrgCreationPolicy } from '../../runtime/service-deps.js';
import { orgCreationOff, orgCreatorNotOwner, orgCreatorScoped } from '../errors.js';

const OWNER_CAPABILITIES = builtinRoleByName('owner')!.capabilities;

export async function requireOrgCreation(caller: Caller, policy: OrgCreationPolicy): Promise<void> {
  if (policy === 'nobody') {
    throw orgCreationOff();
  }
  if (parentOf(caller.identityUid) !== '') {
    throw orgCreatorScoped();
  }
  if (policy === 'anyone') return;
  const grants = await caller.loadGrants();
  const roots = grants.scopes(Capability.CAP_IAM_GROUPS_CREATE).filter((uid) => parentOf(uid) === '');
  if (!roots.some((root) => OWNER_CAPABILITIES.every((c) => grants.has(c, root)))) {
    throw orgCreatorNotOwner();
  }
}
