// Which external issuers Berth may contact for OIDC discovery. An issuer that
// an identity names exactly was chosen by an administrator. One that only
// matches an issuer pattern comes from a token nobody has verified yet, so it
// must be https (plain http only for loopback, and only when the server runs
// with --allow-insecure-issuers). Neither may carry a query, a fragment or
// credentials, and both must be in canonical form: discovery appends a path to
// the issuer, and anything else would steer that request elsewhere.

export interface IssuerUrlPolicy {
  /** An identity names this issuer exactly (not through a pattern). */
  named: boolean;
  /** Plain-http discovery for loopback issuers that only match a pattern. */
  allowInsecureLoopback: boolean;
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Why Berth will not contact `iss`, or undefined when it may. */
export function issuerUrlProblem(iss: string, policy: IssuerUrlPolicy): string | undefined {
  let u: URL;
  try {
    u = new URL(iss);
  } catch {
    return 'issuer is not a URL';
  }
  if (iss.includes('?') || iss.includes('#')) return 'issuer must not carry a query or fragment';
  if (u.username !== '' || u.password !== '') return 'issuer must not carry credentials';
  if (u.href.replace(/\/$/, '') !== iss.replace(/\/$/, '')) return 'issuer must be a URL in canonical form';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol !== 'http:') return 'issuer must be an https URL';
  if (policy.named || (policy.allowInsecureLoopback && isLoopbackHost(u.hostname))) return undefined;
  return 'issuer must be an https URL';
}

/** The discovery document's URL (OpenID Connect Discovery 1.0, section 4). */
export function discoveryUrl(iss: string): URL {
  return new URL(`${iss.replace(/\/$/, '')}/.well-known/openid-configuration`);
}
