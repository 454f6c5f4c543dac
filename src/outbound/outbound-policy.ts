// Where Berth may connect when it makes a request of its own: a webhook
// delivery, an OIDC issuer's discovery document and JWKS, an identity
// provider's token endpoint. One policy for all of them:
//  - metadata, unspecified, link-local, multicast, documentation and reserved
//    addresses are always refused;
//  - loopback and private addresses only when the operator allows them for
//    that kind of request (--allow-insecure-sinks, --allow-insecure-issuers);
//  - https, or plain http to a loopback host only when so allowed.
// It is checked on a URL when it is configured (outboundUrlProblem), and on
// every address a host resolves to when the connection is made
// (pinned-lookup.ts), so a name that resolves to 10.x is refused too.
import { isIP } from 'node:net';
import { type AddressKind, addressKind, bareAddress } from './address-kinds.js';

export interface OutboundPolicy {
  /** Loopback and private addresses, and plain http to loopback hosts, are allowed. */
  allowPrivate: boolean;
  /** The server flag that allows them, named in refusals. */
  flag: string;
}

const WHAT: Record<AddressKind, string> = {
  metadata: 'the cloud metadata address',
  loopback: 'a loopback address',
  unspecified: 'an unspecified address',
  'link-local': 'a link-local address',
  multicast: 'a multicast address',
  documentation: 'a documentation address',
  reserved: 'a reserved address',
  private: 'a private address',
};

/** Kinds refused only when the policy does not allow private addresses. */
const PRIVATE_KINDS: ReadonlySet<AddressKind> = new Set(['loopback', 'private']);

/** Why Berth must not connect to `ip`, or undefined when it may. */
export function addressProblem(ip: string, policy: OutboundPolicy): string | undefined {
  const bare = bareAddress(ip);
  if (isIP(bare) === 0) return `${ip.slice(0, 80)} is not an IP address`;
  const kind = addressKind(bare);
  if (kind === undefined) return undefined;
  if (!PRIVATE_KINDS.has(kind)) return `${bare} is ${WHAT[kind]}`;
  return policy.allowPrivate ? undefined : `${bare} is ${WHAT[kind]} (accepted only on a server run with ${policy.flag})`;
}

function isLoopbackName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name === 'localhost' || name.endsWith('.localhost');
}

/** Whether `host` (a URL's hostname, or an address) is loopback: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  if (isLoopbackName(host)) return true;
  const bare = bareAddress(host);
  return isIP(bare) !== 0 && addressKind(bare) === 'loopback';
}

/**
 * Why Berth must not send a request to `url`, or undefined: an https URL (or
 * plain http to a loopback host, when allowed) without user name or password,
 * whose host, when it is an address, passes addressProblem. `what` names the
 * URL in the answer ("sink", "issuer").
 */
export function outboundUrlProblem(url: URL, policy: OutboundPolicy, what: string): string | undefined {
  const host = url.hostname;
  if (url.protocol === 'http:') {
    if (!policy.allowPrivate) return `${what} must be an https URL (plain http only for loopback hosts on a server run with ${policy.flag})`;
    if (!isLoopbackHost(host)) return `${what} is plain http to a host that is not loopback: only https is allowed there`;
  } else if (url.protocol !== 'https:') return `${what} must be an https URL`;
  if (host === '') return `${what} must name a host`;
  if (url.username !== '' || url.password !== '') return `${what} must not carry a user name or password`;
  if (isIP(bareAddress(host)) !== 0) {
    const problem = addressProblem(host, policy);
    return problem === undefined ? undefined : `${what} host ${problem}`;
  }
  if (isLoopbackName(host) && !policy.allowPrivate) return `${what} host ${host} is a loopback host (accepted only on a server run with ${policy.flag})`;
  return undefined;
}
