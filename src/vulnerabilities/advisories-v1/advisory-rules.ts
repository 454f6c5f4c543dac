// What a v1 write must carry: the artifact and component of an advisory
// (all required, bounded), its aliases (CVE/GHSA/GO ids, not its own id,
// bounded in number), and an event's payload, issue and findings. Checked
// before any read, so a bad request costs no query.
import type { FieldViolation } from '../../core/api-error.js';
import type { Advisory as V1Advisory, AdvisoryEvent as V1Event } from '../../gen/berth/vulnerabilities/v1/advisories_pb.js';
import { ALIAS_ID, CGA_ID } from '../advisory-ids.js';
import { payloadOfV1, type EventPayload } from './v1-messages.js';

export const MAX_NAME = 256;
export const MAX_LOCATION = 1024;
export const MAX_ALIASES = 100;
export const MAX_FINDINGS = 256 * 1024;
export const MAX_PAYLOAD = 64 * 1024;
export const MAX_ISSUE = 1024;

/** The writable fields of an advisory, checked. */
export interface AdvisoryFields {
  artifactType: string;
  artifactName: string;
  artifactArchitecture: string;
  componentName: string;
  componentType: string;
  componentLocation: string;
  /** Sorted, unique. */
  aliases: string[];
}

function text(field: string, value: string | undefined, max: number, bad: FieldViolation[]): string {
  const v = value ?? '';
  if (v.trim() === '') bad.push({ field, description: `${field} is required` });
  else if (v.length > max) bad.push({ field, description: `at most ${max} characters` });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  else if (/[\u0000-\u001f\u007f]/.test(v)) bad.push({ field, description: 'must not contain control characters' });
  return v;
}

/** The checked writable fields of `a` (field names under `prefix`), and the advisory id it names, if any. */
export function advisoryFields(a: V1Advisory | undefined, prefix: string, bad: FieldViolation[]): AdvisoryFields {
  const f = (name: string) => `${prefix}.${name}`;
  const fields: AdvisoryFields = {
    artifactType: text(f('artifact_type'), a?.artifactType, MAX_NAME, bad),
    artifactName: text(f('artifact_name'), a?.artifactName, MAX_NAME, bad),
    artifactArchitecture: text(f('artifact_architecture'), a?.artifactArchitecture, MAX_NAME, bad),
    componentName: text(f('component_name'), a?.componentName, MAX_NAME, bad),
    componentType: text(f('component_type'), a?.componentType, MAX_NAME, bad),
    componentLocation: text(f('component_location'), a?.componentLocation, MAX_LOCATION, bad),
    aliases: [...new Set(a?.aliases ?? [])].sort(),
  };
  if (fields.aliases.length > MAX_ALIASES) bad.push({ field: f('aliases'), description: `at most ${MAX_ALIASES} aliases` });
  else {
    const wrong = fields.aliases.find((x) => !ALIAS_ID.test(x));
    if (wrong !== undefined) bad.push({ field: f('aliases'), description: `"${wrong.slice(0, 80)}" is not a CVE, GHSA or GO id` });
  }
  return fields;
}

/** The advisory id a create names ('' when it names none, then minted). */
export function advisoryIdOf(a: V1Advisory | undefined, prefix: string, aliases: readonly string[], bad: FieldViolation[]): string {
  const id = a?.advisoryId ?? '';
  if (id === '') return '';
  if (!CGA_ID.test(id)) bad.push({ field: `${prefix}.advisory_id`, description: 'must be a CGA id such as CGA-xvgw-cvr7-9g2q' });
  else if (aliases.includes(id)) bad.push({ field: `${prefix}.aliases`, description: 'an alias must differ from the advisory id' });
  return id;
}

/** The payload of an event (required), its issue and findings, checked. */
export function eventContent(
  e: V1Event | undefined,
  prefix: string,
  bad: FieldViolation[],
): (EventPayload & { issue?: string; findings?: Uint8Array }) | undefined {
  if (!e || e.type.case === undefined) {
    bad.push({ field: `${prefix}.type`, description: 'an event needs one of detection, fixed, false_positive_determination, … (its type)' });
    return undefined;
  }
  let p: EventPayload | undefined;
  try {
    p = payloadOfV1(e);
  } catch (err) {
    bad.push({ field: prefix, description: String((err as Error).message).slice(0, 200) });
    return undefined;
  }
  if (!p) return undefined;
  if (JSON.stringify(p.payload).length > MAX_PAYLOAD) bad.push({ field: prefix, description: `the event's payload is at most ${MAX_PAYLOAD} bytes of JSON` });
  if (e.issue !== undefined && e.issue.length > MAX_ISSUE) bad.push({ field: `${prefix}.issue`, description: `at most ${MAX_ISSUE} characters` });
  if (e.findings.length > MAX_FINDINGS) bad.push({ field: `${prefix}.findings`, description: `at most ${MAX_FINDINGS} bytes` });
  return { ...p, issue: e.issue, findings: e.findings.length > 0 ? e.findings : undefined };
}
