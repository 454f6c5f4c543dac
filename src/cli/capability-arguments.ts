// Capabilities typed on the command line: the enum name (CAP_REPO_LIST), the
// friendly name (repo.list, as the reference's CLI spells them) or the enum
// name without its prefix in any case (repo_list). Checked here against the
// proto's list so a typo is named at once, and sent as enum names.
import { capabilityByFriendlyName, isInternalCapability } from '../auth/capability-names.js';
import { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';

/** The enum name of one capability as typed, or an error naming it. */
export function capabilityArgument(typed: string): string {
  const friendly = capabilityByFriendlyName(typed);
  if (friendly !== undefined) return Capability[friendly];
  const upper = typed.toUpperCase();
  const enumName = upper.startsWith('CAP_') ? upper : `CAP_${upper}`;
  const cap = (Capability as unknown as Record<string, Capability | undefined>)[enumName];
  if (cap === undefined || typeof cap !== 'number' || isInternalCapability(cap)) {
    throw new Error(`unknown capability ${JSON.stringify(typed)} (see \`berth iam capabilities list\`)`);
  }
  return enumName;
}

/** "CAP_REPO_LIST, tag.list" → ["CAP_REPO_LIST", "CAP_TAG_LIST"]. */
export function capabilitiesArgument(value: string): string[] {
  const typed = value
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (typed.length === 0) throw new Error('--capabilities needs at least one capability, e.g. repo.list or CAP_REPO_LIST');
  return typed.map(capabilityArgument);
}
