// Content digests of the OCI image spec: `algorithm:encoded`. Berth accepts
// the two registered algorithms, sha256 and sha512, lowercase hex only.
import { createHash, type Hash } from 'node:crypto';

export type DigestAlgorithm = 'sha256' | 'sha512';

export interface Digest {
  algorithm: DigestAlgorithm;
  hex: string;
  /** `algorithm:hex`, as clients send and receive it. */
  text: string;
}

const HEX_LENGTH: Record<DigestAlgorithm, number> = { sha256: 64, sha512: 128 };
const DIGEST = /^(sha256|sha512):([0-9a-f]+)$/;

/** The digest a string names, or undefined when it is not a valid sha256/sha512 digest. */
export function parseDigest(text: string): Digest | undefined {
  const m = DIGEST.exec(text);
  if (!m) return undefined;
  const algorithm = m[1] as DigestAlgorithm;
  if (m[2].length !== HEX_LENGTH[algorithm]) return undefined;
  return { algorithm, hex: m[2], text };
}

/** A streaming hasher for the digest's algorithm. */
export function digester(algorithm: DigestAlgorithm): Hash {
  return createHash(algorithm);
}

/** The digest of bytes held in memory (manifests). */
export function digestOf(bytes: Uint8Array, algorithm: DigestAlgorithm = 'sha256'): string {
  return `${algorithm}:${createHash(algorithm).update(bytes).digest('hex')}`;
}

/** For data functions: a digest their caller should have checked; a bad one is a bug, not a client error. */
export function assertDigest(text: string): void {
  if (!parseDigest(text)) throw new TypeError(`not a sha256/sha512 digest: ${JSON.stringify(text.slice(0, 140))}`);
}
