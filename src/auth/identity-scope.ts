// An identity created under a group is scoped to that group: it can hold roles
// only there and below. Root-level identities (people, registered through sign
// in or first start) belong to no group and can be bound anywhere. The rule is
// enforced when a binding is written and again when grants are read, so a
// binding that predates the rule still grants nothing outside the scope.
import { isSelfOrBelow, parentOf } from '../core/uidp.js';

/** What a caller is told when a binding would reach above its identity's group. */
export const IDENTITY_SCOPE_RULE = 'the identity is scoped to the group it was created in: bind it there or in a group below it';

export function bindingWithinIdentityScope(identityUid: string, groupUid: string): boolean {
  const home = parentOf(identityUid);
  return home === '' || isSelfOrBelow(groupUid, home);
}
