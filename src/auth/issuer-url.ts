// Which external issuers Berth may contact for OIDC discovery, whether an
// identity names the issuer exactly or a token's issuer only matched a
// pattern: the outbound policy (src/outbound/) with --allow-insecure-issuers
// allowing private and loopback addresses and plain http to loopback. No
// issuer may carry a query, a fragment or credentials, and it must be in
// canonical form: discovery appends a path to the issuer, and anything else
// would steer that request elsewhere. The same rules refuse such an issuer
// when an identity or identity provider is created or updated.
import { type OutboundPolicy, outboundUrlProblem } from '../outbound/outbound-policy.js';

/** The outbound policy of issuer fetches (discovery, JWKS, token endpoint); `allowInsecure` is --allow-insecure-issuers. */
export function issuerPolicy(allowInsecure: boolean): OutboundPolicy {
  return { allowPrivate: allowInsecure, flag: '--allow-insecure-issuers' };
}

/** Why Berth will not contact `iss`, or undefined when it may. */
export function issuerUrlProblem(iss: string, policy: OutboundPolicy): string | undefined {
  const u = URL.parse(iss);
  if (!u) return 'issuer is not a URL';
  if (iss.includes('?') || iss.includes('#')) return 'issuer must not carry a query or fragment';
  if (u.username !== '' || u.password !== '') return 'issuer must not carry credentials';
  if (u.href.replace(/\/$/, '') !== iss.replace(/\/$/, '')) return 'issuer must be a URL in canonical form';
  return outboundUrlProblem(u, policy, 'issuer');
}

/** The discovery document's URL (OpenID Connect Discovery 1.0, section 4). */
export function discoveryUrl(iss: string): URL {
  return new URL(`${iss.replace(/\/$/, '')}/.well-known/openid-configuration`);
}
