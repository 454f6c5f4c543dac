// Whether the identity that vouched for a role binding made later — a group
// invite's creator, whoever set an identity provider's default role, an
// external group role mapping's creator — could still make that binding
// itself: it exists and holds role_bindings.create and every capability of
// the role at the group, as when it vouched. Checked when the promise is
// kept (accepting the invite, signing in), so a promise does not outlive its
// maker's authority. Read from the identity's live bindings, not from any
// token; one instance caches them for the answer it serves (a list page).
import { Grants } from '../../auth/grants.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { Executor } from '../../store/transact.js';
import { roleCapabilities } from '../roles/role-row.js';

export class GrantAuthority {
  private readonly grants = new Map<string, Promise<Grants>>();
  private readonly roles = new Map<string, Promise<Capability[] | undefined>>();

  constructor(private readonly ex: Executor) {}

  /** True when `vouchedBy` (null: nobody, or an identity since deleted) could bind `roleUid` on `group` now. */
  async holds(vouchedBy: string | null, roleUid: string, group: string): Promise<boolean> {
    if (vouchedBy === null) return false;
    const caps = await this.capabilitiesOf(roleUid);
    if (!caps) return false;
    const grants = await this.grantsOf(vouchedBy);
    return [Capability.CAP_IAM_ROLE_BINDINGS_CREATE, ...caps].every((c) => grants.has(c, group));
  }

  private capabilitiesOf(roleUid: string): Promise<Capability[] | undefined> {
    let found = this.roles.get(roleUid);
    if (!found) {
      found = this.ex
        .selectFrom('roles')
        .select('capabilities')
        .where('uid', '=', roleUid)
        .executeTakeFirst()
        .then((r) => r && roleCapabilities(r));
      this.roles.set(roleUid, found);
    }
    return found;
  }

  private grantsOf(identityUid: string): Promise<Grants> {
    let found = this.grants.get(identityUid);
    if (!found) {
      found = this.ex
        .selectFrom('role_bindings as rb')
        .innerJoin('roles as r', 'r.uid', 'rb.role_uid')
        .select(['rb.parent_uid as group_uid', 'r.capabilities as capabilities'])
        .where('rb.identity_uid', '=', identityUid)
        .execute()
        .then((rows) =>
          Grants.of(
            identityUid,
            rows.map((r) => ({ groupUid: r.group_uid, capabilities: roleCapabilities(r) })),
          ),
        );
      this.grants.set(identityUid, found);
    }
    return found;
  }
}
