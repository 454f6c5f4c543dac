// A SCIM User (RFC 7643 §4.1) as Berth stores and returns it. The client's
// attributes are kept as it wrote them (so what Okta or Entra ID reads back
// is what it sent), apart from what is the server's (id, meta, schemas),
// the write-only password (never stored) and the read-only groups (not
// returned: a group's members say who is in it). userName, externalId, displayName and active are
// also columns, for filters and for provisioning.
import { scimInvalidValue } from './scim-errors.js';
import { checkJson, deleteAttr, getAttr, isObject, type Json, optionalString, setAttr } from './scim-json.js';
import { ENTERPRISE_USER_SCHEMA, SCIM_LIMITS, USER_SCHEMA } from './scim-schemas.js';
import type { ScimUsersTable } from './scim-tables.js';

export interface UserFields {
  userName: string;
  externalId: string | undefined;
  displayName: string;
  active: boolean;
  /** The attributes to store (the resource without id, meta, schemas, password, groups). */
  resource: Json;
}

/** `active` as a boolean; Entra ID sends "True" and "False". */
function activeOf(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw scimInvalidValue('active must be a boolean');
}

/** Checks a User resource from a client (POST, PUT, or the result of a PATCH). */
export function userFields(input: unknown): UserFields {
  if (!isObject(input)) throw scimInvalidValue('a User must be a JSON object');
  checkJson(input);
  const resource = structuredClone(input);
  for (const a of ['schemas', 'id', 'meta', 'password', 'groups']) deleteAttr(resource, a);
  const userName = optionalString(resource, 'userName');
  if (userName === undefined || userName.trim() === '') throw scimInvalidValue('userName is required');
  const externalId = optionalString(resource, 'externalId');
  const displayName = optionalString(resource, 'displayName') ?? '';
  const active = activeOf(getAttr(resource, 'active'));
  setAttr(resource, 'active', active);
  const emails = getAttr(resource, 'emails');
  if (emails !== undefined && emails !== null && (!Array.isArray(emails) || emails.length > 20))
    throw scimInvalidValue('emails must be an array of at most 20');
  if (JSON.stringify(resource).length > SCIM_LIMITS.userBytes) throw scimInvalidValue(`a User must be at most ${SCIM_LIMITS.userBytes} bytes of JSON`);
  return { userName, externalId, displayName, active, resource };
}

/** The name Berth gives the identity: displayName, else the name's parts, else userName (at most 200 characters). */
export function identityName(f: UserFields): string {
  const name = getAttr(f.resource, 'name');
  const formatted = isObject(name) ? getAttr(name, 'formatted') : undefined;
  const parts = isObject(name) ? [getAttr(name, 'givenName'), getAttr(name, 'familyName')].filter((p) => typeof p === 'string' && p !== '') : [];
  const chosen = f.displayName || (typeof formatted === 'string' && formatted) || parts.join(' ') || f.userName;
  return chosen.slice(0, 200);
}

/** The primary email, else the first. */
export function primaryEmail(f: UserFields): string | undefined {
  const emails = getAttr(f.resource, 'emails');
  if (!Array.isArray(emails)) return undefined;
  const values = emails.filter(isObject);
  const pick = values.find((e) => getAttr(e, 'primary') === true) ?? values[0];
  const v = pick ? getAttr(pick, 'value') : undefined;
  return typeof v === 'string' && v.length <= 320 ? v : undefined;
}

export interface UserMeta {
  /** Base URL of the provider's SCIM endpoint. */
  base: string;
}

/** The User as the API answers it. */
export function userResource(row: ScimUsersTable, meta: UserMeta): Json {
  const resource = JSON.parse(row.resource) as Json;
  const schemas = [USER_SCHEMA];
  if (getAttr(resource, ENTERPRISE_USER_SCHEMA) !== undefined) schemas.push(ENTERPRISE_USER_SCHEMA);
  return {
    schemas,
    id: row.id,
    ...resource,
    active: row.active === 1,
    meta: {
      resourceType: 'User',
      created: row.create_time,
      lastModified: row.update_time,
      location: `${meta.base}/Users/${row.id}`,
      version: `W/"${row.version}"`,
    },
  };
}
