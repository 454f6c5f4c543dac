// What the human sign-in flow (provider-login.ts) needs from IAM, as an
// interface: auth reads no IAM table. IAM implements it in
// src/iam/sign-in/iam-login-directory.ts.

/** More groups than any real token carries; a larger claim is refused rather than half applied. */
export const MAX_SYNC_GROUPS = 10_000;

/** An identity provider as the sign-in flow uses it. */
export interface LoginProvider {
  uid: string;
  issuer: string;
  clientId: string;
  /** openid, email, profile and the provider's additional scopes. */
  scopes: string[];
  /** The ID token claim holding the user's groups ('groups' when the provider leaves it empty). */
  groupsClaim: string;
  pkceEnabled: boolean;
}

/** Who the provider says signed in: claims of a verified ID token. */
export interface SignedInUser {
  issuer: string;
  subject: string;
  /** Only when the provider says it verified it. */
  email?: string;
  name: string;
  groups: string[];
}

export interface LoginDirectory {
  /** The provider's public settings, or undefined when there is none with this uid. */
  provider(uid: string): Promise<LoginProvider | undefined>;
  /** The client secret in the clear ('' for a public client), or undefined when this server cannot open it. */
  clientSecret(uid: string): Promise<string | undefined>;
  /**
   * In one transaction: registers the user on first sign in (root-level
   * identity, the provider's default role on its group), then makes the
   * bindings of the provider's group mappings match the user's groups
   * (at most MAX_SYNC_GROUPS of them).
   */
  signIn(providerUid: string, user: SignedInUser): Promise<{ identityUid: string; registered: boolean }>;
}
