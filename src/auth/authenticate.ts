// Who is calling: a Bearer token from Berth's issuer whose audience is one of
// the audiences this listener accepts (the API URL for the API listener; the
// registry host for the registry), for an identity that still exists.
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { AccessDirectory } from './access-directory.js';
import { Caller } from './caller.js';
import { identityGone, tokenInvalid, tokenRequired } from './errors.js';
import type { Issuer } from './issuer.js';
import { narrowingOf, type TokenNarrowing } from './token-narrowing.js';

export class Authenticator {
  constructor(
    private readonly issuer: Issuer,
    private readonly access: AccessDirectory,
    /** Token audiences this listener accepts. */
    readonly audiences: readonly string[],
  ) {}

  /** The caller of an `Authorization` header value; errors carry `domain`. */
  async authenticate(authorization: string | null | undefined, domain: string): Promise<Caller> {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!m) throw tokenRequired(domain);
    let subject: string;
    let narrowing: TokenNarrowing;
    try {
      const verified = await this.issuer.verify(m[1], this.audiences);
      subject = verified.subject;
      narrowing = narrowingOf(verified.claims);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err; // reloading keys failed: not the token's fault
      throw tokenInvalid(domain);
    }
    // A valid signature is not enough: the identity may have been deleted since.
    const access = await this.access.load(subject);
    if (!access.exists) throw identityGone(domain);
    return new Caller(subject, access, narrowing);
  }
}
