// Capabilities by their friendly names ("repo.list"), read from the enum's
// options so the proto stays the single list of capabilities.
import { getOption } from '@bufbuild/protobuf';
import { Capability, CapabilitySchema, friendly_name, internal_only } from '../gen/berth/capabilities/v1/capabilities_pb.js';

const byName = new Map<string, Capability>();
const nameOf = new Map<Capability, string>();
const internal = new Set<Capability>();
for (const v of CapabilitySchema.values) {
  const n = getOption(v, friendly_name);
  if (n) {
    byName.set(n, v.number);
    nameOf.set(v.number, n);
  }
  if (getOption(v, internal_only)) internal.add(v.number);
}

export function capabilityName(cap: Capability): string {
  return nameOf.get(cap) ?? Capability[cap] ?? String(cap);
}

export function isInternalCapability(cap: Capability): boolean {
  return internal.has(cap) || cap === Capability.CAP_INTERNAL;
}

/** The capability with this friendly name ("repo.list"), if any. */
export function capabilityByFriendlyName(name: string): Capability | undefined {
  return byName.get(name);
}

/** Every capability with its enum name and friendly name, in enum order. */
export function allCapabilities(): { capability: Capability; enumName: string; friendlyName: string; internal: boolean }[] {
  return CapabilitySchema.values
    .filter((v) => v.number !== Capability.UNKNOWN)
    .map((v) => ({ capability: v.number, enumName: v.name, friendlyName: nameOf.get(v.number) ?? '', internal: isInternalCapability(v.number) }));
}

export function capabilitiesByName(names: readonly string[]): Capability[] {
  return names.map((n) => {
    const c = byName.get(n);
    if (c === undefined) throw new Error(`unknown capability ${n}`);
    return c;
  });
}
