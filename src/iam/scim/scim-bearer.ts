// Who may call a provider's SCIM endpoint: the bearer of that provider's live
// SCIM token (or of the previous one, during a regenerate's overlap), while
// SCIM is enabled. A platform token, another provider's token, an expired or
// revoked one and an unknown provider all get the same 401; a valid token on
// a provider whose SCIM is turned off gets 403. Hashes are compared in
// constant time; the token itself is never logged or stored.
import { timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../store/transact.js';
import { scimTokenHash } from '../scim-tokens/scim-state.js';
import { scimDisabled, scimUnauthorized } from './scim-errors.js';

/** The provider as SCIM provisioning uses it. */
export interface ScimProvider {
  uid: string;
  parent_uid: string;
  issuer: string;
  default_role_uid: string;
  default_role_by: string | null;
}

const MAX_TOKEN_LENGTH = 512;

function sameHash(a: string | null, b: string): boolean {
  if (a === null || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export async function authenticateScim(db: Executor, providerUid: string, authorization: string | undefined): Promise<ScimProvider> {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!m || m[1].length > MAX_TOKEN_LENGTH) throw scimUnauthorized();
  const hash = scimTokenHash(m[1]);
  const row = await db
    .selectFrom('identity_provider_scim as s')
    .innerJoin('identity_providers as p', 'p.uid', 's.provider_uid')
    .select([
      'p.uid as uid',
      'p.parent_uid as parent_uid',
      'p.issuer as issuer',
      'p.default_role_uid as default_role_uid',
      'p.default_role_by as default_role_by',
      's.enabled as enabled',
      's.token_hash as token_hash',
      's.token_expire_time as token_expire_time',
      's.previous_token_hash as previous_token_hash',
      's.previous_token_expire_time as previous_token_expire_time',
    ])
    .where('s.provider_uid', '=', providerUid)
    .executeTakeFirst();
  if (!row) throw scimUnauthorized();
  const now = new Date().toISOString();
  const current = sameHash(row.token_hash, hash) && (row.token_expire_time === null || row.token_expire_time > now);
  const previous = sameHash(row.previous_token_hash, hash) && row.previous_token_expire_time !== null && row.previous_token_expire_time > now;
  if (!current && !previous) throw scimUnauthorized();
  if (row.enabled !== 1) throw scimDisabled();
  return { uid: row.uid, parent_uid: row.parent_uid, issuer: row.issuer, default_role_uid: row.default_role_uid, default_role_by: row.default_role_by };
}
