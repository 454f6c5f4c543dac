// The issuer's tables: its signing keys, and the static-key assertions
// /sts/exchange accepted, kept until they expire so none is used twice.
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

declare module '../store/database.js' {
  interface Database {
    signing_keys: SigningKeysTable;
    used_assertions: UsedAssertionsTable;
  }
}
