// The discovery resources of RFC 7644 §4 (ServiceProviderConfig,
// ResourceTypes, Schemas), saying what this server does: PATCH yes, bulk,
// sort, change-password and ETags no, filters yes (at most `count` results).
import {
  ENTERPRISE_USER_SCHEMA,
  GROUP_SCHEMA,
  LIST_RESPONSE,
  RESOURCE_TYPE_SCHEMA,
  SCHEMA_SCHEMA,
  SCIM_LIMITS,
  SERVICE_PROVIDER_CONFIG_SCHEMA,
  USER_SCHEMA,
} from './scim-schemas.js';
import type { Json } from './scim-json.js';

export function serviceProviderConfig(base: string): Json {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_LIMITS.pageSize },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: "The identity provider's SCIM token (GenerateScimToken)",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

const RESOURCE_TYPES = [
  { id: 'User', name: 'User', endpoint: '/Users', schema: USER_SCHEMA, schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }] },
  { id: 'Group', name: 'Group', endpoint: '/Groups', schema: GROUP_SCHEMA, schemaExtensions: [] },
];

export function resourceTypes(base: string): Json {
  const Resources = RESOURCE_TYPES.map((t) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    ...t,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${t.id}` },
  }));
  return { schemas: [LIST_RESPONSE], totalResults: Resources.length, startIndex: 1, itemsPerPage: Resources.length, Resources };
}

export function resourceType(base: string, id: string): Json | undefined {
  const t = RESOURCE_TYPES.find((r) => r.id === id);
  return t && { schemas: [RESOURCE_TYPE_SCHEMA], ...t, meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${t.id}` } };
}

const str = (name: string, opts: Json = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...opts,
});

const SCHEMAS = [
  {
    id: USER_SCHEMA,
    name: 'User',
    description: 'A person; an active one is a Berth identity',
    attributes: [
      str('userName', { required: true, uniqueness: 'server' }),
      str('displayName'),
      {
        name: 'name',
        type: 'complex',
        multiValued: false,
        required: false,
        mutability: 'readWrite',
        returned: 'default',
        subAttributes: [str('formatted'), str('givenName'), str('familyName')],
      },
      {
        name: 'emails',
        type: 'complex',
        multiValued: true,
        required: false,
        mutability: 'readWrite',
        returned: 'default',
        subAttributes: [
          str('value'),
          str('type'),
          { name: 'primary', type: 'boolean', multiValued: false, required: false, mutability: 'readWrite', returned: 'default' },
        ],
      },
      { name: 'active', type: 'boolean', multiValued: false, required: false, mutability: 'readWrite', returned: 'default' },
    ],
  },
  {
    id: GROUP_SCHEMA,
    name: 'Group',
    description: 'A group of users; its displayName or externalId can be named by external group role mappings',
    attributes: [
      str('displayName', { required: true }),
      {
        name: 'members',
        type: 'complex',
        multiValued: true,
        required: false,
        mutability: 'readWrite',
        returned: 'default',
        subAttributes: [str('value', { caseExact: true, mutability: 'immutable' }), str('display', { mutability: 'readOnly' })],
      },
    ],
  },
  {
    id: ENTERPRISE_USER_SCHEMA,
    name: 'EnterpriseUser',
    description: 'Stored as sent, not interpreted',
    attributes: [str('employeeNumber'), str('department'), str('organization')],
  },
];

export function schemas(base: string): Json {
  const Resources = SCHEMAS.map((s) => ({ schemas: [SCHEMA_SCHEMA], ...s, meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.id}` } }));
  return { schemas: [LIST_RESPONSE], totalResults: Resources.length, startIndex: 1, itemsPerPage: Resources.length, Resources };
}

export function schema(base: string, id: string): Json | undefined {
  const s = SCHEMAS.find((x) => x.id === id);
  return s && { schemas: [SCHEMA_SCHEMA], ...s, meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.id}` } };
}
