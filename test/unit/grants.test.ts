// Grants.has answers by walking the uid's ancestors once a capability is held
// at many groups; it must agree with the plain rule (held at the uid or at an
// ancestor) for any set of bindings.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, it } from 'node:test';
import { Grants } from '../../src/auth/grants.js';
import { isSelfOrBelow, newChildUid, newRootUid } from '../../src/core/uidp.js';
import { Capability } from '../../src/gen/berth/capabilities/v1/capabilities_pb.js';

describe('Grants.has', () => {
  it('agrees with "held at the uid or an ancestor" for few and many bindings', () => {
    const root = newRootUid();
    const groups = [root];
    for (let i = 0; i < 400; i++) groups.push(newChildUid(groups[randomInt(groups.length)]));
    for (const bound of [1, 3, 5, 40, 300]) {
      const at = Array.from({ length: bound }, () => groups[1 + randomInt(groups.length - 1)]);
      const grants = Grants.of(root, [
        { groupUid: at[0], capabilities: [Capability.CAP_REPO_LIST] },
        ...at.slice(1).map((g) => ({ groupUid: g, capabilities: [Capability.CAP_REPO_LIST] })),
      ]);
      for (const uid of [...groups, newChildUid(groups[7]), newRootUid()]) {
        const want = at.some((g) => isSelfOrBelow(uid, g));
        assert.equal(grants.has(Capability.CAP_REPO_LIST, uid), want, `${bound} bindings, ${uid}`);
        assert.equal(grants.has(Capability.CAP_REPO_DELETE, uid), false);
      }
    }
  });
});
