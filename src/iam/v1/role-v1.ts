// A role as v1 shows it and takes it: `id` and capabilities by friendly name
// ("repo.list"). On input the enum name ("CAP_REPO_LIST") is accepted too, as
// the REST API accepts both spellings everywhere.
import { create } from '@bufbuild/protobuf';
import { capabilityByFriendlyName, capabilityName } from '../../auth/capability-names.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import { type Role, RoleSchema } from '../../gen/berth/iam/v1/roles_pb.js';
import { badIamRequest } from '../errors.js';

export function v1Role(r: { uid: string; name: string; description: string; capabilities?: readonly Capability[] }): Role {
  return create(RoleSchema, { id: r.uid, name: r.name, description: r.description, capabilities: (r.capabilities ?? []).map(capabilityName) });
}

/** The capabilities named, or INVALID_ARGUMENT listing the names that are none. */
export function capabilitiesOf(names: readonly string[], field: string): Capability[] {
  const out: Capability[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const cap = capabilityByFriendlyName(name) ?? (name.startsWith('CAP_') ? Capability[name as keyof typeof Capability] : undefined);
    if (cap === undefined) unknown.push(name);
    else out.push(cap);
  }
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5).map((n) => JSON.stringify(n.slice(0, 64)));
    throw badIamRequest([{ field, description: `unknown capability ${shown.join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}` }]);
  }
  return out;
}
