// Where Berth may send a delivery. A sink is checked twice: its URL when a
// subscription is created (sinkUrlProblem), and every address its host
// resolves to when the delivery worker connects (sinkAddressProblem), so a
// name that resolves to a metadata or private address is refused as well.
// Addresses are classified with node:net's BlockList, never with patterns on
// their text; an IPv4 range also covers its IPv6 embeddings (mapped, NAT64,
// IPv4-compatible, 6to4), so [::ffff:169.254.169.254] is the metadata address.
import { BlockList, isIP } from 'node:net';

export const MAX_SINK_CHARS = 2048;

type Kind = 'metadata' | 'loopback' | 'unspecified' | 'link-local' | 'multicast' | 'reserved' | 'private';

const WHAT: Record<Kind, string> = {
  metadata: 'the cloud metadata address',
  loopback: 'a loopback address',
  unspecified: 'an unspecified address',
  'link-local': 'a link-local address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  private: 'a private address',
};

/** Kinds refused only when private sinks are not allowed (--allow-insecure-sinks). */
const PRIVATE_KINDS: ReadonlySet<Kind> = new Set(['loopback', 'private']);

// In the order they are checked: the metadata address lies inside the
// link-local and unique-local ranges, and is refused whatever is allowed.
const RANGES: ReadonlyArray<[Kind, { v4?: Array<[string, number]>; v6?: Array<[string, number]> }]> = [
  [
    'metadata',
    {
      v4: [
        ['169.254.169.254', 32],
        ['169.254.170.2', 32], // ECS task metadata
        ['100.100.100.200', 32], // Alibaba Cloud, inside the shared (CGNAT) range
      ],
      v6: [['fd00:ec2::254', 128]],
    },
  ],
  ['loopback', { v4: [['127.0.0.0', 8]], v6: [['::1', 128]] }],
  ['unspecified', { v4: [['0.0.0.0', 8]], v6: [['::', 128]] }],
  ['link-local', { v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] }],
  ['multicast', { v4: [['224.0.0.0', 4]], v6: [['ff00::', 8]] }],
  ['reserved', { v4: [['240.0.0.0', 4]] }],
  [
    'private',
    {
      v4: [
        ['10.0.0.0', 8],
        ['172.16.0.0', 12],
        ['192.168.0.0', 16],
        ['100.64.0.0', 10],
        ['198.18.0.0', 15], // benchmarking
      ],
      v6: [
        ['fc00::', 7],
        ['fec0::', 10],
      ],
    },
  ],
];

/** "169.254.0.0" → "a9fe:0": the address as the last two groups of an IPv6 address. */
function v4Groups(v4: string): string {
  const [a, b, c, d] = v4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** The IPv6 prefixes that carry the IPv4 range `v4/bits` inside them. */
function embeddings(v4: string, bits: number): Array<[string, number]> {
  const g = v4Groups(v4);
  return [
    [`::ffff:${g}`, 96 + bits], // IPv4-mapped
    [`64:ff9b::${g}`, 96 + bits], // NAT64
    [`::${g}`, 96 + bits], // IPv4-compatible (deprecated)
    [`2002:${g}::`, 16 + bits], // 6to4
  ];
}

const LISTS: ReadonlyArray<[Kind, BlockList]> = RANGES.map(([kind, r]) => {
  const list = new BlockList();
  for (const [net, bits] of r.v4 ?? []) {
    list.addSubnet(net, bits, 'ipv4');
    for (const [net6, bits6] of embeddings(net, bits)) list.addSubnet(net6, bits6, 'ipv6');
  }
  for (const [net, bits] of r.v6 ?? []) list.addSubnet(net, bits, 'ipv6');
  return [kind, list];
});

function kindOf(ip: string, family: 4 | 6): Kind | undefined {
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return LISTS.find(([, list]) => list.check(ip, type))?.[0];
}

/** `[::1]` → `::1`; a zone (`fe80::1%eth0`) is dropped. */
function bareAddress(ip: string): string {
  const unbracketed = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const zone = unbracketed.indexOf('%');
  return zone < 0 ? unbracketed : unbracketed.slice(0, zone);
}

/**
 * Why Berth must not connect to `ip` for a delivery, or undefined when it may.
 * Metadata, unspecified, link-local, multicast and reserved addresses are
 * always refused; loopback and private ones unless `allowPrivate`
 * (--allow-insecure-sinks).
 */
export function sinkAddressProblem(ip: string, allowPrivate: boolean): string | undefined {
  const bare = bareAddress(ip);
  const family = isIP(bare);
  if (family === 0) return `${ip.slice(0, 80)} is not an IP address`;
  const kind = kindOf(bare, family as 4 | 6);
  if (kind === undefined) return undefined;
  if (PRIVATE_KINDS.has(kind)) return allowPrivate ? undefined : `${bare} is ${WHAT[kind]} (accepted only on a server run with --allow-insecure-sinks)`;
  return `${bare} is ${WHAT[kind]}`;
}

function isLoopbackName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name === 'localhost' || name.endsWith('.localhost');
}

/** Whether `host` (a URL's hostname) is loopback: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  if (isLoopbackName(host)) return true;
  const bare = bareAddress(host);
  const family = isIP(bare);
  return family !== 0 && kindOf(bare, family as 4 | 6) === 'loopback';
}

/**
 * Why `url` cannot be a subscription's sink, or undefined when it can: an
 * absolute https URL of at most 2048 characters without user name, password
 * or fragment, whose host is not an address sinkAddressProblem refuses; plain
 * http only for a loopback host and only when `allowInsecure`.
 */
export function sinkUrlProblem(url: string, allowInsecure: boolean): string | undefined {
  if (url === '') return 'sink is required';
  if (url.length > MAX_SINK_CHARS) return `sink must be at most ${MAX_SINK_CHARS} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f]/.test(url)) return 'sink must not contain spaces or control characters';
  const parsed = URL.parse(url);
  if (!parsed) return 'sink must be an absolute URL';
  const host = parsed.hostname;
  if (parsed.protocol === 'http:') {
    if (!allowInsecure) return 'sink must be an https URL (plain http only for loopback hosts on a server run with --allow-insecure-sinks)';
    if (!isLoopbackHost(host)) return 'plain http is accepted only for loopback hosts (localhost, 127.0.0.0/8, ::1); use https';
  } else if (parsed.protocol !== 'https:') return 'sink must be an https URL';
  if (host === '') return 'sink must name a host';
  if (parsed.username !== '' || parsed.password !== '') return 'sink must not carry a user name or password';
  if (url.includes('#')) return 'sink must not have a fragment';
  if (isIP(bareAddress(host)) !== 0) {
    const problem = sinkAddressProblem(host, allowInsecure);
    return problem === undefined ? undefined : `sink host ${problem}`;
  }
  if (isLoopbackName(host) && !allowInsecure) return `sink host ${host} is a loopback host (accepted only on a server run with --allow-insecure-sinks)`;
  return undefined;
}
