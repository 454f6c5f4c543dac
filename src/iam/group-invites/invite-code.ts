// Invite codes: "binv1.<key id>.<secret>". The key id (64 random bits, hex)
// is public: it finds the invite and is shown by list and get. The secret
// (256 random bits, base64url) is shown once, in the create response; only a
// sha256 of the whole code is stored, and a presented code is compared with
// it in constant time. A plain hash suffices: the secret is random, so there
// is nothing to guess that a slow hash would protect.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const CODE = /^binv1\.([0-9a-f]{16})\.[A-Za-z0-9_-]{43}$/;
/** Longest code the parser looks at; anything longer is not a code. */
export const MAX_CODE_LENGTH = 128;

export interface NewCode {
  code: string;
  keyId: string;
  hash: string;
}

export function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export function newInviteCode(): NewCode {
  const keyId = randomBytes(8).toString('hex');
  const code = `binv1.${keyId}.${randomBytes(32).toString('base64url')}`;
  return { code, keyId, hash: codeHash(code) };
}

/** The key id of a well-formed code; undefined for anything else. */
export function keyIdOf(code: string): string | undefined {
  if (code.length > MAX_CODE_LENGTH) return undefined;
  return CODE.exec(code)?.[1];
}

/** Whether `code` hashes to `storedHash`, compared in constant time. */
export function codeMatches(code: string, storedHash: string): boolean {
  const presented = Buffer.from(codeHash(code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
