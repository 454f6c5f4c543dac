// A provider's SCIM state (identity_provider_scim, migration 0030): what the
// token methods read and write, what GetIdentityProvider shows, and the
// token's hash. The token is random, shown once, and stored only as its
// SHA-256; the SCIM listener compares hashes in constant time
// (scim-bearer.ts).
import { createHash, randomBytes } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { isoToTimestamp } from '../../core/clock.js';
import {
  type IdentityProvider_SCIM,
  IdentityProvider_SCIM_CredentialState as State,
  IdentityProvider_SCIMSchema,
} from '../../gen/berth/iam/v2/identity_providers_pb.js';
import { capabilitiesOf } from '../../store/db-capabilities.js';
import type { Executor, Tx } from '../../store/transact.js';
import type { IdentityProviderScimTable } from '../scim/scim-tables.js';

/** Prefix of every SCIM token, so secret scanners can recognise one. */
export const SCIM_TOKEN_PREFIX = 'berthscim_';

export function newScimToken(): string {
  return `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('hex')}`;
}

export function scimTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The etag of a provider whose SCIM was never set up, so SetScimEnabled can be its first call. */
export const INITIAL_ETAG = '0';

export function newEtag(): string {
  return randomBytes(12).toString('hex');
}

/** Where a SCIM client of this provider sends its requests. */
export function scimEndpointUrl(publicUrl: string, providerUid: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/scim/v2/${providerUid}`;
}

export type ScimRow = IdentityProviderScimTable;

export async function loadScimRow(db: Executor, providerUid: string): Promise<ScimRow | undefined> {
  return db.selectFrom('identity_provider_scim').selectAll().where('provider_uid', '=', providerUid).executeTakeFirst();
}

/** The rows of several providers (a page of a list), by provider uid. */
export async function loadScimRows(db: Executor, providerUids: readonly string[]): Promise<Map<string, ScimRow>> {
  if (providerUids.length === 0) return new Map();
  const rows = await db.selectFrom('identity_provider_scim').selectAll().where('provider_uid', 'in', providerUids).execute();
  return new Map(rows.map((r) => [r.provider_uid, r]));
}

/** The row, locked for this transaction on PostgreSQL, made (disabled, no token) when the provider has none yet. */
export async function scimRowForUpdate(tx: Tx, providerUid: string, now: string): Promise<ScimRow> {
  const q = tx.selectFrom('identity_provider_scim').selectAll().where('provider_uid', '=', providerUid);
  const found = await capabilitiesOf(tx).lockRows(q, 'exclusive').executeTakeFirst();
  if (found) return found;
  const row: ScimRow = {
    provider_uid: providerUid,
    enabled: 0,
    token_hash: null,
    token_expire_time: null,
    previous_token_hash: null,
    previous_token_expire_time: null,
    revoke_time: null,
    etag: INITIAL_ETAG,
    update_time: now,
  };
  await tx.insertInto('identity_provider_scim').values(row).execute();
  return row;
}

export async function saveScimRow(tx: Tx, row: ScimRow): Promise<void> {
  const { provider_uid, ...rest } = row;
  await tx.updateTable('identity_provider_scim').set(rest).where('provider_uid', '=', provider_uid).execute();
}

function credentialState(row: ScimRow | undefined, now: string): State {
  if (!row || (row.token_hash === null && row.revoke_time === null)) return State.NOT_ISSUED;
  if (row.token_hash === null) return State.REVOKED;
  if (row.token_expire_time !== null && row.token_expire_time <= now) return State.EXPIRED;
  if (row.previous_token_hash !== null && row.previous_token_expire_time !== null && row.previous_token_expire_time > now) return State.ROTATING;
  return State.LIVE;
}

/** IdentityProvider.scim as GetIdentityProvider shows it. */
export function scimOfRow(row: ScimRow | undefined, publicUrl: string, providerUid: string): IdentityProvider_SCIM {
  const now = new Date().toISOString();
  const rotating = row?.previous_token_hash != null && row.previous_token_expire_time != null && row.previous_token_expire_time > now;
  return create(IdentityProvider_SCIMSchema, {
    enabled: row?.enabled === 1,
    endpointUrl: scimEndpointUrl(publicUrl, providerUid),
    tokenExpireTime: row?.token_hash && row.token_expire_time ? isoToTimestamp(row.token_expire_time) : undefined,
    previousTokenExpireTime: rotating ? isoToTimestamp(row.previous_token_expire_time!) : undefined,
    credentialState: credentialState(row, now),
    etag: row?.etag ?? INITIAL_ETAG,
  });
}
