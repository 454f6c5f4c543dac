// What makes a role valid, shared by create and update.
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { capabilityName, isInternalCapability } from '../../auth/capability-names.js';
import { MAX_ROLE_DESCRIPTION, MAX_ROLE_NAME } from './role-row.js';

export function roleViolations(name: string, description: string, caps: readonly Capability[]): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (name === '') out.push({ field: 'role.name', description: 'role.name is required' });
  else if (name.length > MAX_ROLE_NAME) out.push({ field: 'role.name', description: `role.name must be at most ${MAX_ROLE_NAME} characters` });
  if (description.length > MAX_ROLE_DESCRIPTION) {
    out.push({ field: 'role.description', description: `role.description must be at most ${MAX_ROLE_DESCRIPTION} characters` });
  }
  if (caps.length === 0) out.push({ field: 'role.capabilities', description: 'a role needs at least one capability' });
  // Unknown and internal-only capabilities cannot be granted by anyone.
  const bad = caps.filter((c) => c === Capability.UNKNOWN || isInternalCapability(c) || Capability[c] === undefined);
  if (bad.length > 0) {
    out.push({ field: 'role.capabilities', description: `not grantable: ${bad.map((c) => capabilityName(c)).join(', ')}` });
  }
  return out;
}

/** Sorted and without duplicates, the way roles are stored. */
export function normalizeCapabilities(caps: readonly Capability[]): Capability[] {
  return [...new Set(caps)].sort((a, b) => a - b);
}
