// What kind of address an IP is, for the outbound policy (outbound-policy.ts).
// Classified with node:net's BlockList, never with patterns on the text; an
// IPv4 range also covers its IPv6 embeddings (mapped, translated, NAT64,
// IPv4-compatible, 6to4), so [::ffff:169.254.169.254] and
// [::ffff:0:169.254.169.254] are the metadata address. Hand-written ranges:
// no IP-range package is a dependency, and BlockList is built in.
import { BlockList, isIP } from 'node:net';

export type AddressKind = 'metadata' | 'loopback' | 'unspecified' | 'link-local' | 'multicast' | 'documentation' | 'reserved' | 'private';

type Ranges = { v4?: Array<[string, number]>; v6?: Array<[string, number]> };

// In the order they are checked: the metadata addresses lie inside the
// link-local, reserved and unique-local ranges, and are named as such.
const RANGES: ReadonlyArray<[AddressKind, Ranges]> = [
  [
    'metadata',
    {
      v4: [
        ['169.254.169.254', 32],
        ['169.254.170.2', 32], // ECS task metadata
        ['100.100.100.200', 32], // Alibaba Cloud, inside the shared (CGNAT) range
        ['192.0.0.192', 32], // Oracle Cloud, inside the IETF protocol range
      ],
      v6: [['fd00:ec2::254', 128]],
    },
  ],
  ['loopback', { v4: [['127.0.0.0', 8]], v6: [['::1', 128]] }],
  ['unspecified', { v4: [['0.0.0.0', 8]], v6: [['::', 128]] }],
  ['link-local', { v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] }],
  ['multicast', { v4: [['224.0.0.0', 4]], v6: [['ff00::', 8]] }],
  [
    'documentation',
    {
      v4: [
        ['192.0.2.0', 24],
        ['198.51.100.0', 24],
        ['203.0.113.0', 24],
      ],
      v6: [
        ['2001:db8::', 32],
        ['3fff::', 20],
      ],
    },
  ],
  [
    'reserved',
    {
      v4: [
        ['240.0.0.0', 4], // and the broadcast address
        ['192.0.0.0', 24], // IETF protocol assignments (NAT64 discovery, DS-Lite…)
        ['192.88.99.0', 24], // 6to4 relay anycast, deprecated
      ],
      // Whole prefixes whose embedded IPv4 address (if any) is not where embeddings() looks, or
      // which no server is reached at: any of their addresses could lead into this network.
      v6: [
        ['::', 96], // IPv4-compatible, deprecated
        ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
        ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
        ['100::', 64], // discard-only
        ['2001::', 32], // Teredo
        ['2001:10::', 28], // ORCHID
        ['2001:20::', 28], // ORCHIDv2
      ],
    },
  ],
  [
    'private',
    {
      v4: [
        ['10.0.0.0', 8],
        ['172.16.0.0', 12],
        ['192.168.0.0', 16],
        ['100.64.0.0', 10], // shared (CGNAT)
        ['198.18.0.0', 15], // benchmarking
      ],
      v6: [
        ['fc00::', 7],
        ['fec0::', 10],
        ['2001:2::', 48], // benchmarking
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
    [`::ffff:0:${g}`, 96 + bits], // IPv4-translated (SIIT)
    [`64:ff9b::${g}`, 96 + bits], // NAT64
    [`::${g}`, 96 + bits], // IPv4-compatible (deprecated)
    [`2002:${g}::`, 16 + bits], // 6to4
  ];
}

const LISTS: ReadonlyArray<[AddressKind, BlockList]> = RANGES.map(([kind, r]) => {
  const list = new BlockList();
  for (const [net, bits] of r.v4 ?? []) {
    list.addSubnet(net, bits, 'ipv4');
    for (const [net6, bits6] of embeddings(net, bits)) list.addSubnet(net6, bits6, 'ipv6');
  }
  for (const [net, bits] of r.v6 ?? []) list.addSubnet(net, bits, 'ipv6');
  return [kind, list];
});

/** `[::1]` → `::1`; a zone (`fe80::1%eth0`) is dropped. */
export function bareAddress(ip: string): string {
  const unbracketed = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const zone = unbracketed.indexOf('%');
  return zone < 0 ? unbracketed : unbracketed.slice(0, zone);
}

/** The kind of a bare IP address, undefined for a public one; throws on something that is not an address. */
export function addressKind(bare: string): AddressKind | undefined {
  const family = isIP(bare);
  if (family === 0) throw new Error('not an IP address');
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return LISTS.find(([, list]) => list.check(bare, type))?.[0];
}
