// Secrets at rest: when the operator gives a secrets key (--secrets-key-file or
// BERTH_SECRETS_KEY), private keys are stored sealed with AES-256-GCM, so a
// copy of the database (a backup, a world-readable file) does not give away
// the issuer's signing key. A version prefix tells sealed values from the
// plaintext JSON stored before, which still loads.
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MIN_KEY_CHARS = 32;

/**
 * The AES key derived from the operator's key text (at least 32 characters,
 * e.g. `openssl rand -base64 32`). HKDF, not a password hash: the text is
 * meant to be random. A KeyObject never prints its bytes in a log.
 */
export function secretsKeyFrom(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.length < MIN_KEY_CHARS) {
    throw new Error(`the secrets key must be at least ${MIN_KEY_CHARS} characters (e.g. openssl rand -base64 32), got ${trimmed.length}`);
  }
  return createSecretKey(Buffer.from(hkdfSync('sha256', trimmed, 'berth secrets key', 'sealing v1', 32)));
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** `context` binds the value to its place (e.g. the key's id): a sealed value copied elsewhere does not open. */
export function seal(key: KeyObject, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The plaintext, or undefined when `key` is not the key it was sealed with (or the value was altered). */
export function unseal(key: KeyObject, stored: string, context: string): string | undefined {
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
      .setAAD(Buffer.from(context))
      .setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * `stored` sealed with `to` instead (for a change of secrets key): opened with
 * `from`, or taken as it is when it was stored in plaintext. Throws, naming
 * `what`, when `from` does not open it.
 */
export function resealed(stored: string, from: KeyObject | undefined, to: KeyObject, context: string, what: string): string {
  let plain = stored;
  if (isSealed(stored)) {
    const opened = from === undefined ? undefined : unseal(from, stored, context);
    if (opened === undefined) {
      throw new Error(`${what} is sealed with another secrets key than the current one given (--secrets-key-file or BERTH_SECRETS_KEY): nothing was changed`);
    }
    plain = opened;
  }
  return seal(to, plain, context);
}
