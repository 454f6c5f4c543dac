// Capabilities in REST requests by friendly name ("repo.list") as well as by
// enum name ("CAP_REPO_LIST") or number: the reference's v1 API and CLI spell
// them the friendly way, and accepting both costs nothing. The friendly name is
// turned into the enum name before protobuf-es's strict JSON parse, which then
// refuses anything that is neither.
import type { DescField, JsonValue } from '@bufbuild/protobuf';
import { capabilityByFriendlyName } from '../../auth/capability-names.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';

const CAPABILITY_ENUM = 'berth.capabilities.v1.Capability';

/** A field holding one capability or a list of them. */
export function isCapabilityField(f: DescField): boolean {
  return (f.fieldKind === 'enum' || (f.fieldKind === 'list' && f.listKind === 'enum')) && f.enum.typeName === CAPABILITY_ENUM;
}

/** The enum name for a friendly name; any other value unchanged, for the strict parse to judge. */
export function capabilityJsonValue(value: JsonValue): JsonValue {
  if (typeof value !== 'string') return value;
  const cap = capabilityByFriendlyName(value);
  return cap === undefined ? value : Capability[cap];
}
