// A subscription's Standard Webhooks secret at rest: sealed with the
// operator's secrets key (secret-sealing.ts) and bound to the subscription's
// uid, as identity providers' client secrets are. Delivery opens it per
// attempt; the subscriptions API seals it on create.
import type { KeyObject } from 'node:crypto';
import { isSealed, seal, unseal } from '../../auth/secret-sealing.js';

/** What a sealed secret is bound to: a value copied onto another subscription does not open. */
export function signingSecretContext(subscriptionUid: string): string {
  return `berth event subscription signing secret ${subscriptionUid}`;
}

/** The stored form of `secret` ('' for none); sealed when there is a key. */
export function sealSigningSecret(secrets: KeyObject | undefined, subscriptionUid: string, secret: string): string {
  if (secret === '' || !secrets) return secret;
  return seal(secrets, secret, signingSecretContext(subscriptionUid));
}

/**
 * The secret to sign with: undefined when the subscription signs nothing
 * (''), 'unreadable' when it is sealed and this server lacks the key that
 * opens it (the delivery fails and is retried: the operator may restart
 * Berth with the right key).
 */
export function openSigningSecret(secrets: KeyObject | undefined, subscriptionUid: string, stored: string): string | undefined | 'unreadable' {
  if (stored === '') return undefined;
  if (!isSealed(stored)) return stored;
  if (!secrets) return 'unreadable';
  return unseal(secrets, stored, signingSecretContext(subscriptionUid)) ?? 'unreadable';
}
