// Who may create a root organization. A new organization is owned by its
// creator, so the creator must be a root-level identity: one created under an
// organization is scoped to it and can hold no role outside it. Beyond that,
// the operator's policy: by default only identities that own an existing
// organization (every capability of the owner role at a root group) — a role
// that merely includes groups.create, such as registry.push, is not enough.
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { Caller } from '../../auth/caller.js';
import { builtinRoleByName } from '../roles/builtin-roles.js';
import { permissionDenied } from '../../core/api-error.js';
import { parentOf } from '../../core/uidp.js';
import type { OrgCreationPolicy } from '../../runtime/service-deps.js';
import { IAM_DOMAIN } from '../errors.js';

const OWNER_CAPABILITIES = builtinRoleByName('owner')!.capabilities;

export async function requireOrgCreation(caller: Caller, policy: OrgCreationPolicy): Promise<void> {
  if (policy === 'nobody') {
    throw permissionDenied(IAM_DOMAIN, 'creating organizations through the API is turned off on this server (--allow-org-creation)');
  }
  if (parentOf(caller.identityUid) !== '') {
    throw permissionDenied(IAM_DOMAIN, 'an identity created under an organization cannot own another one; use a root-level identity');
  }
  if (policy === 'anyone') return;
  const grants = await caller.loadGrants();
  const roots = grants.scopes(Capability.CAP_IAM_GROUPS_CREATE).filter((uid) => parentOf(uid) === '');
  if (!roots.some((root) => OWNER_CAPABILITIES.every((c) => grants.has(c, root)))) {
    throw permissionDenied(IAM_DOMAIN, 'creating an organization requires the owner role on an existing organization');
  }
}
