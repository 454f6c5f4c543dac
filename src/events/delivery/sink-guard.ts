// Where a delivery may go (SSRF guard). A sink's host is resolved by Berth,
// every address it resolves to is checked (sink-address.ts: never metadata,
// unspecified, link-local, multicast or reserved; private and loopback only
// with --allow-insecure-sinks), and the connection is made to a checked
// address (pinnedLookup is the socket's own lookup), so DNS cannot answer one
// thing to the check and another to the connection. Plain http only to a
// loopback host, and only with that flag.
// (The subscriptions API checks a sink when it is created: this is the check
// at delivery time, when DNS may say something else.)
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isLoopbackHost, sinkAddressProblem } from '../sink-address.js';

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Why a delivery must not be sent to `url` at all (scheme, host), or undefined; `allowInsecure` is --allow-insecure-sinks. */
export function deliveryUrlProblem(url: URL, allowInsecure: boolean): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return `the sink's scheme ${url.protocol.slice(0, 16)} is not https`;
  if (!allowInsecure) return 'the sink is plain http: only https is allowed (plain http to a loopback host needs --allow-insecure-sinks)';
  if (!isLoopbackHost(hostOf(url))) return 'the sink is plain http to a host that is not loopback: only https is allowed there';
  return undefined;
}

/** A refusal of the guard: the delivery is dead, not retried. */
export class SinkRefused extends Error {
  readonly code = 'ESINKREFUSED';
}

type Resolve = (host: string, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (host, cb) => dnsLookup(host, { all: true, verbatim: true }, cb);

/**
 * The socket lookup of one delivery: resolves every address of the host and
 * fails with SinkRefused when any is refused (or, with `loopbackOnly`, is not
 * loopback); otherwise connects to those checked addresses.
 */
export function pinnedLookup(allowPrivate: boolean, loopbackOnly: boolean, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      for (const a of addresses) {
        const problem =
          sinkAddressProblem(a.address, allowPrivate) ??
          (loopbackOnly && !isLoopbackHost(a.address) ? `the sink address ${a.address} is not loopback` : undefined);
        if (problem) return callback(new SinkRefused(problem), '', 0);
      }
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) return callback(Object.assign(new Error('no address of that family'), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    });
  };
}
