// A provider's OIDC client secret at rest: sealed with the operator's secrets
// key (secret-sealing.ts) and bound to the provider's uid, so a sealed value
// copied onto another provider does not open. Without a secrets key no secret
// is accepted: Berth never stores one in the clear.
import type { KeyObject } from 'node:crypto';
import { resealed, seal, unseal } from '../../auth/secret-sealing.js';
import type { Executor, Tx } from '../../store/transact.js';
import { clientSecretNeedsKey, identityProviderNotFound } from '../errors.js';

const context = (providerUid: string) => `berth identity provider client secret ${providerUid}`;

/** The stored form of `secret` ('' for none); FAILED_PRECONDITION when there is a secret but no key. */
export function sealClientSecret(secrets: KeyObject | undefined, providerUid: string, secret: string): string {
  if (secret === '') return '';
  if (!secrets) throw clientSecretNeedsKey();
  return seal(secrets, secret, context(providerUid));
}

/**
 * The secret the sign-in flow sends to the provider's token endpoint: '' when
 * the provider has none, undefined when it cannot be opened (the server runs
 * without the secrets key it was sealed with).
 */
export function openClientSecret(secrets: KeyObject | undefined, providerUid: string, stored: string): string | undefined {
  if (stored === '') return '';
  if (!secrets) return undefined;
  return unseal(secrets, stored, context(providerUid));
}

/** The provider's client secret in the clear, for the sign-in flow (see openClientSecret); NOT_FOUND without the provider. */
export async function readClientSecret(db: Executor, secrets: KeyObject | undefined, providerUid: string): Promise<string | undefined> {
  const row = await db.selectFrom('identity_providers').select('client_secret').where('uid', '=', providerUid).executeTakeFirst();
  if (!row) throw identityProviderNotFound(providerUid);
  return openClientSecret(secrets, providerUid, row.client_secret);
}

/** Seals every provider's client secret with `to` instead of `from` (a change of secrets key), in `tx`; returns how many. */
export async function resealClientSecrets(tx: Tx, from: KeyObject | undefined, to: KeyObject): Promise<number> {
  const rows = await tx.selectFrom('identity_providers').select(['uid', 'client_secret']).where('client_secret', '!=', '').execute();
  for (const r of rows) {
    const sealed = resealed(r.client_secret, from, to, context(r.uid), `the client secret of identity provider ${r.uid}`);
    await tx.updateTable('identity_providers').set({ client_secret: sealed }).where('uid', '=', r.uid).execute();
  }
  return rows.length;
}
