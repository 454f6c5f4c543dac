// A subscription's Standard Webhooks secret ("whsec_" + base64 of 24 to 64
// bytes). At rest it is sealed with the operator's secrets key when the server
// has one (secret-sealing.ts), bound to the subscription's uid so a sealed
// value copied onto another subscription does not open; without a key it is
// stored as given. It is never returned by the API; the delivery worker reads
// it back with subscriptionSigningSecret.
import type { KeyObject } from 'node:crypto';
import { isSealed, resealed, seal, unseal } from '../../auth/secret-sealing.js';
import type { Tx } from '../../store/transact.js';
import type { FieldViolation } from '../../core/api-error.js';
import type { SubscriptionRow } from './subscription-row.js';

const PREFIX = 'whsec_';
const MIN_BYTES = 24;
const MAX_BYTES = 64;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const context = (uid: string) => `berth event subscription signing secret ${uid}`;

/** Why `secret` is not a Standard Webhooks secret Berth accepts, or undefined ('' is none: unsigned). */
export function signingSecretViolation(secret: string, field: string): FieldViolation | undefined {
  if (secret === '') return undefined;
  const bad = { field, description: `signing_secret must be "${PREFIX}" followed by the base64 of ${MIN_BYTES} to ${MAX_BYTES} random bytes` };
  if (!secret.startsWith(PREFIX) || secret.length > PREFIX.length + 4 * Math.ceil(MAX_BYTES / 3)) return bad;
  const text = secret.slice(PREFIX.length);
  if (!BASE64.test(text)) return bad;
  const bytes = Buffer.from(text, 'base64');
  // Canonical base64 only (padding optional): what decodes is what was meant.
  if (bytes.toString('base64').replace(/=+$/, '') !== text.replace(/=+$/, '')) return bad;
  if (bytes.length < MIN_BYTES || bytes.length > MAX_BYTES) return bad;
  return undefined;
}

/** The stored form of `secret` for the subscription `uid` ('' for none). */
export function storedSigningSecret(secrets: KeyObject | undefined, uid: string, secret: string): string {
  if (secret === '' || !secrets) return secret;
  return seal(secrets, secret, context(uid));
}

/**
 * The subscription's signing secret in the clear, for signing a delivery:
 * '' when it has none, undefined when it cannot be opened (it was sealed and
 * the server runs without that secrets key).
 */
export function subscriptionSigningSecret(row: Pick<SubscriptionRow, 'uid' | 'signing_secret'>, secrets: KeyObject | undefined): string | undefined {
  const stored = row.signing_secret;
  if (stored === '' || !isSealed(stored)) return stored;
  if (!secrets) return undefined;
  return unseal(secrets, stored, context(row.uid));
}

/** Seals every subscription's signing secret with `to` instead of `from` (a change of secrets key), in `tx`; returns how many. */
export async function resealSigningSecrets(tx: Tx, from: KeyObject | undefined, to: KeyObject): Promise<number> {
  const rows = await tx.selectFrom('event_subscriptions').select(['uid', 'signing_secret']).where('signing_secret', '!=', '').execute();
  for (const r of rows) {
    const sealed = resealed(r.signing_secret, from, to, context(r.uid), `the signing secret of event subscription ${r.uid}`);
    await tx.updateTable('event_subscriptions').set({ signing_secret: sealed }).where('uid', '=', r.uid).execute();
  }
  return rows.length;
}
