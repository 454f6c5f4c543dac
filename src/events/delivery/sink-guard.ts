// Where a delivery may go (SSRF guard). A sink's host is resolved by Berth,
// every address it resolves to is checked, and the connection is made to a
// checked address (pinnedLookup is the socket's own lookup), so DNS cannot
// answer one thing to the check and another to the connection. Never:
// unspecified, link-local (which holds the cloud metadata address),
// multicast, reserved and the known metadata addresses; private, loopback and
// shared (CGNAT) ranges only with --allow-insecure-sinks. Plain http only to
// a loopback host, and only with that flag.
// (The subscriptions API checks a sink when it is created: this is the check
// at delivery time, when DNS may say something else.)
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

function ranges(list: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const b = new BlockList();
  for (const [net, prefix, type] of list) b.addSubnet(net, prefix, type);
  return b;
}

const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

const NEVER: ReadonlyArray<[string, string, number, 'ipv4' | 'ipv6']> = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];
const PRIVATE: ReadonlyArray<[string, string, number, 'ipv4' | 'ipv6']> = [
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['shared (CGNAT)', '100.64.0.0', 10, 'ipv4'],
  ['benchmarking', '198.18.0.0', 15, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private (unique local)', 'fc00::', 7, 'ipv6'],
];
const NEVER_LISTS = NEVER.map(([what, net, prefix, type]) => ({ what, list: ranges([[net, prefix, type]]) }));
const PRIVATE_LISTS = PRIVATE.map(([what, net, prefix, type]) => ({ what, list: ranges([[net, prefix, type]]) }));
const LOOPBACK = ranges([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(ip: string): string | undefined {
  const m = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return m[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!hex) return undefined;
  const hi = Number.parseInt(hex[1], 16);
  const lo = Number.parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why a delivery must not connect to `ip`, or undefined when it may. */
export function sinkAddressProblem(ip: string, allowPrivate: boolean): string | undefined {
  const family = isIP(ip);
  if (family === 0) return `${ip.slice(0, 64)} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(ip) : undefined;
  if (v4 !== undefined) return sinkAddressProblem(v4, allowPrivate);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.has(ip.toLowerCase())) return `the sink address ${ip} is a cloud metadata address`;
  for (const { what, list } of NEVER_LISTS) if (list.check(ip, type)) return `the sink address ${ip} is ${what}`;
  if (allowPrivate) return undefined;
  for (const { what, list } of PRIVATE_LISTS) if (list.check(ip, type)) return `the sink address ${ip} is ${what} (allowed only with --allow-insecure-sinks)`;
  return undefined;
}

export function isLoopbackAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  const v4 = family === 6 ? embeddedIpv4(ip) : undefined;
  return v4 !== undefined ? LOOPBACK.check(v4, 'ipv4') : LOOPBACK.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
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
          (loopbackOnly && !isLoopbackAddress(a.address) ? `the sink address ${a.address} is not loopback` : undefined);
        if (problem) return callback(new SinkRefused(problem), '', 0);
      }
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) return callback(Object.assign(new Error('no address of that family'), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    });
  };
}
