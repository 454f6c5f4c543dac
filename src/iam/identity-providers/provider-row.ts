// An identity provider as stored and as returned. The client secret is
// write-only: it is not among the columns the API reads, and no response
// carries it (the field is INPUT_ONLY, so REST leaves it out as well).
import { create } from '@bufbuild/protobuf';
import { isoToTimestamp } from '../../core/clock.js';
import { IdentityProviderSchema, type IdentityProvider } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { Executor } from '../../store/transact.js';
import { identityProviderNotFound } from '../errors.js';
import type { IdentityProvidersTable } from '../iam-tables.js';

/** Every column but the client secret. */
export const PUBLIC_COLUMNS = [
  'uid',
  'parent_uid',
  'name',
  'description',
  'default_role_uid',
  'issuer',
  'client_id',
  'additional_scopes',
  'groups_claim',
  'pkce_enabled',
  'default_role_by',
  'create_time',
  'update_time',
] as const;

export type ProviderRow = Omit<IdentityProvidersTable, 'client_secret'>;

export function providerFromRow(row: ProviderRow): IdentityProvider {
  return create(IdentityProviderSchema, {
    uid: row.uid,
    name: row.name,
    description: row.description,
    defaultRole: row.default_role_uid,
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
    configuration: {
      case: 'oidc',
      value: {
        issuer: row.issuer,
        clientId: row.client_id,
        additionalScopes: JSON.parse(row.additional_scopes) as string[],
        groupsClaim: row.groups_claim,
        pkceEnabled: row.pkce_enabled !== 0,
      },
    },
  });
}

export async function loadProviderRow(db: Executor, uid: string): Promise<ProviderRow> {
  const row = await db.selectFrom('identity_providers').select(PUBLIC_COLUMNS).where('uid', '=', uid).executeTakeFirst();
  if (!row) throw identityProviderNotFound(uid);
  return row;
}
