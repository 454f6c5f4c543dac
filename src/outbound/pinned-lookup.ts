// The socket lookup of every outbound connection. Berth resolves the host
// itself, checks every address it resolves to (outbound-policy.ts), and the
// socket connects to those checked addresses: DNS cannot answer one thing to
// the check and another to the connection, and a name that resolves to a
// metadata or private address is refused like the address itself.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressProblem, isLoopbackHost, type OutboundPolicy } from './outbound-policy.js';

/** A refusal of the outbound policy: not worth retrying. */
export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
}

export type Resolve = (host: string, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (host, cb) => dnsLookup(host, { all: true, verbatim: true }, cb);

/**
 * Resolves every address of the host and fails with OutboundRefused when any
 * is refused (or, with `loopbackOnly` — plain http —, is not loopback);
 * otherwise connects to those checked addresses.
 */
export function pinnedLookup(policy: OutboundPolicy, loopbackOnly: boolean, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      for (const a of addresses) {
        const problem =
          addressProblem(a.address, policy) ?? (loopbackOnly && !isLoopbackHost(a.address) ? `the address ${a.address} is not loopback` : undefined);
        if (problem) return callback(new OutboundRefused(problem), '', 0);
      }
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) return callback(Object.assign(new Error('no address of that family'), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    });
  };
}
