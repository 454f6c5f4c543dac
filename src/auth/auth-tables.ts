// The issuer's tables: its signing keys, and the static-key assertions
// /sts/exchange accepted, kept until they expire so none is used twice, and
// the state of refresh-token chains (refresh-tokens.ts).
export interface SigningKeysTable {
  kid: string;
  algorithm: string;
  private_jwk: string;
  public_jwk: string;
  create_time: string;
  /** When the key stops verifying (berth admin signing-keys); null while it is not retiring. */
  retire_time: string | null;
}

export interface UsedAssertionsTable {
  id: string;
  expire_time: string;
}

/** Refresh tokens of the earlier form (random, stored by hash): they still rotate, once, into the sealed form. */
export interface RefreshTokensTable {
  /** The token's issue time (12 hex digits) and its sha256 (hex), or the bare sha256 for rows written before; the token itself is never stored. */
  id: string;
  /** Every token rotated from the same exchange shares it; reuse revokes them all. */
  chain_id: string;
  identity_uid: string;
  audience: string;
  /** The narrowing claims of the tokens it mints (JSON object). */
  narrowing: string;
  /** 1 once rotated: presenting it again is a reuse. */
  used: number;
  expire_time: string;
  create_time: string;
}

/** A refresh-token chain that was rotated or revoked; a chain without a row has rotated no token yet. */
export interface RefreshChainsTable {
  chain_id: string;
  /** The generation of the chain's one live token; a token of an earlier one was used. */
  next_generation: number;
  /** 1: no token of the chain rotates any more (a reuse, or logout). */
  revoked: number;
  expire_time: string;
}

declare module '../store/database.js' {
  interface Database {
    signing_keys: SigningKeysTable;
    used_assertions: UsedAssertionsTable;
    refresh_tokens: RefreshTokensTable;
    refresh_chains: RefreshChainsTable;
  }
}
