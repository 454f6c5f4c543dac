// A SCIM Group (RFC 7643 §4.2): displayName, externalId and members (users
// of the same provider, by id). Nested groups are not supported: a member
// that is not one of the provider's users is refused.
import { randomUUID } from 'node:crypto';
import { scimInvalidValue } from './scim-errors.js';
import { checkJson, getAttr, isObject, type Json, optionalString } from './scim-json.js';
import { GROUP_SCHEMA } from './scim-schemas.js';
import type { ScimGroupsTable } from './scim-tables.js';

export interface GroupFields {
  displayName: string;
  externalId: string | undefined;
  members: string[];
}

export function newGroupId(): string {
  return randomUUID();
}

export function groupFields(input: unknown): GroupFields {
  if (!isObject(input)) throw scimInvalidValue('a Group must be a JSON object');
  checkJson(input);
  const displayName = optionalString(input, 'displayName');
  if (displayName === undefined || displayName.trim() === '') throw scimInvalidValue('displayName is required');
  const externalId = optionalString(input, 'externalId');
  const raw = getAttr(input, 'members') ?? [];
  if (!Array.isArray(raw)) throw scimInvalidValue('members must be an array');
  const members = new Set<string>();
  for (const m of raw) {
    const v = isObject(m) ? getAttr(m, 'value') : undefined;
    if (typeof v !== 'string' || v === '' || v.length > 256) throw scimInvalidValue('each member needs a value: the id of a User');
    members.add(v);
  }
  return { displayName, externalId, members: [...members] };
}

export interface MemberView {
  value: string;
  display: string;
}

/** The Group as the API answers it; members left out when the client asked to exclude them. */
export function groupResource(row: ScimGroupsTable, members: MemberView[] | undefined, base: string): Json {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    displayName: row.display_name,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    ...(members === undefined ? {} : { members: members.map((m) => ({ value: m.value, display: m.display, $ref: `${base}/Users/${m.value}`, type: 'User' })) }),
    meta: {
      resourceType: 'Group',
      created: row.create_time,
      lastModified: row.update_time,
      location: `${base}/Groups/${row.id}`,
      version: `W/"${row.version}"`,
    },
  };
}
