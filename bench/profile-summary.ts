// Summarizes a V8 .cpuprofile (node --cpu-prof) of the server under load into
// the shares the performance notes talk about: each sample is charged to the
// nearest frame on its stack that belongs to a known part (so node:sqlite's
// native calls count as the driver that made them, and a builtin such as
// JSON.stringify as the code that called it).
// Usage: node dist/bench/profile-summary.js file.cpuprofile
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  /** µs on the monotonic clock (process.hrtime in any process on the machine). */
  startTime: number;
}

/** A span of the monotonic clock in µs (process.hrtime.bigint() / 1000n): only the samples taken in it count. */
export interface Window {
  from: number;
  to: number;
}

/** The weight of each sample: its time delta, or 0 outside the window. */
function weights(profile: CpuProfile, window?: Window): number[] {
  let t = profile.startTime;
  return profile.timeDeltas.map((d) => {
    t += d;
    return window === undefined || (t >= window.from && t <= window.to) ? d : 0;
  });
}

/** Named parts of the server, each a pattern tested against "url functionName"; first match wins. */
export type Parts = Array<[string, RegExp]>;

// The API's parts (bench/api.ts).
const PARTS: Parts = [
  [
    'protobuf messages (create, timestamps, row mappers)',
    /\/src\/core\/clock\.|-row\.js|@bufbuild\/protobuf\/dist\/esm\/(create|wkt|reflect)|\/src\/(iam|registry)\/.*\/(list|get)-|@bufbuild\/protobuf/,
  ],
  ['JSON writer + stringify', /\/src\/core\/json-writer\./],
  ['page token + fingerprint', /\/src\/list\/(page-token|list-params)\./],
  ['list engine (src/list)', /\/src\/list\//],
  ['database driver (node:sqlite / pg)', /\/src\/store\/(sqlite|postgres)|node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//],
  ['Kysely (build, compile, executor) + compiled queries', /node_modules\/kysely\/|\/src\/store\/(compiled-queries|table-versions)\./],
  ['auth (token, access, grants)', /\/src\/auth\/|node_modules\/jose\//],
  ['REST routing + request message', /\/src\/server\/rest\/(route-table|path-template|request-message)\./],
  ['REST handler', /\/src\/server\/rest\/rest-plugin\./],
  ['handler context (Connect / REST)', /node_modules\/@connectrpc\/|\/src\/server\/rest\/rest-context\./],
  [
    'sockets: HTTP (Fastify, node:http) and, on PostgreSQL, the database connection (node:net)',
    /node_modules\/(fastify|find-my-way|light-my-request|avvio|@fastify|fast-)|node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|timers))/,
  ],
  ['other Berth code', /\/src\//],
];

// The registry's parts (bench/registry.ts): hashing, the blob store and the
// file system ahead of the rest, so a blob's bytes are charged to what
// handles them rather than to the route that started it.
export const REGISTRY_PARTS: Parts = [
  ['sha256 (node:crypto Hash)', /node:internal\/crypto\//],
  ['blob store (src/registry/blobs)', /\/src\/registry\/blobs\//],
  ['file system (node:fs)', /node:(fs|internal\/fs)/],
  ['database driver (node:sqlite / pg)', /\/src\/store\/(sqlite|postgres)|node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//],
  ['Kysely (build, compile, executor) + compiled queries', /node_modules\/kysely\/|\/src\/store\//],
  ['auth (token verify, access, grants)', /\/src\/auth\/|node_modules\/jose\/|\/src\/oci\/(authorize-repo|repo-permissions|repo-target|registry-token)\./],
  ['manifests, tags (src/registry/content, tags, registry-v1)', /\/src\/registry\//],
  ['OCI routes (src/oci)', /\/src\/oci\//],
  [
    'sockets: HTTP (Fastify, node:http), streams and, on PostgreSQL, the database connection',
    /node_modules\/(fastify|find-my-way|light-my-request|avvio|@fastify|fast-)|node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|timers))/,
  ],
  ['other Berth code', /\/src\//],
];

function partOf(frame: CallFrame, parts: Parts): string | undefined {
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(idle)') return 'idle';
  if (frame.functionName === '(program)') return 'V8 / native (unattributed)';
  const text = `${frame.url} ${frame.functionName}`;
  if (frame.url === '') return undefined;
  for (const [name, re] of parts) if (re.test(text)) return name;
  return undefined;
}

export function summarize(profile: CpuProfile, partList: Parts = PARTS, window?: Window): { parts: Array<[string, number]>; busyMs: number } {
  const weight = weights(profile, window);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const charged = new Map<number, string>();
  const chargeOf = (id: number): string => {
    const known = charged.get(id);
    if (known) return known;
    let cur: number | undefined = id;
    let part: string | undefined;
    while (cur !== undefined && part === undefined) {
      part = partOf(byId.get(cur)!.callFrame, partList);
      cur = parent.get(cur);
    }
    const out = part ?? 'other (node internals)';
    charged.set(id, out);
    return out;
  };
  const totals = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    if (weight[i] === 0) continue;
    const part = chargeOf(profile.samples[i]);
    totals.set(part, (totals.get(part) ?? 0) + weight[i]);
  }
  totals.delete('idle');
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  const parts = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / busy] as [string, number]);
  return { parts, busyMs: busy / 1000 };
}

/** The functions with the most self time (idle left out), as shares of the busy time. */
export function topFunctions(profile: CpuProfile, n: number, window?: Window): Array<[string, number]> {
  const weight = weights(profile, window);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + weight[i]);
  const byName = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    const f = node.callFrame;
    if (t === 0 || f.functionName === '(idle)') continue;
    busy += t;
    const where = f.url ? ` ${f.url.replace(/^.*\/(dist|node_modules)\//, '').replace(/^file:\/\//, '')}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'}${where}`;
    byName.set(key, (byName.get(key) ?? 0) + t);
  }
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => [k, v / busy] as [string, number]);
}

/** `top`: also list that many functions by self time; `window`: only the samples taken in it. */
export function formatSummary(title: string, file: string, partList?: Parts, top = 0, window?: Window): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const { parts, busyMs } = summarize(profile, partList, window);
  const lines = [`${title} (${(busyMs / 1000).toFixed(1)} s busy)`];
  for (const [name, share] of parts) lines.push(`  ${(share * 100).toFixed(1).padStart(5)} %  ${name}`);
  if (top > 0) {
    lines.push('  functions by self time:');
    for (const [name, share] of topFunctions(profile, top, window)) lines.push(`  ${(share * 100).toFixed(1).padStart(5)} %  ${name}`);
  }
  return lines.join('\n');
}

/**
 * The profile of the server's main thread under load in `dir`: the largest.
 * Worker threads (the SQLite checkpointer) write profiles of their own.
 */
export function mainProfile(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  return files.reduce((a, b) => (statSync(b).size > statSync(a).size ? b : a));
}

if (process.argv[1]?.endsWith('profile-summary.js') && process.argv[2]) console.log(formatSummary(process.argv[2], process.argv[2]));
