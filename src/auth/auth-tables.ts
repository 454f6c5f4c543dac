// The issuer's tables: its signing keys, and the static-key assertions
// /sts/exchange accepted, kept until they expire so none is used twice, and
// the refresh tokens it handed out (refresh-tokens.ts).
export interface SigningKeysTable {
  kid: string;
  algorithm: string;
  private_jwk: string;
  public_jwk: string;
  create_time: string;
}

export interface UsedAssertionsTable {
  id: string;
  expire_time: string;
}

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

declare module '../store/database.js' {
  interface Database {
    signing_keys: SigningKeysTable;
    used_assertions: UsedAssertionsTable;
    refresh_tokens: RefreshTokensTable;
  }
}
