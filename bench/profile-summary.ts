// Summarizes a V8 .cpuprofile (node --cpu-prof) of the server under load into
// the shares the performance notes talk about: each sample is charged to the
// nearest frame on its stack that belongs to a known part (so node:sqlite's
// native calls count as the driver that made them, and a builtin such as
// JSON.stringify as the code that called it).
// Usage: node dist/bench/profile-summary.js file.cpuprofile
import { readFileSync } from 'node:fs';

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
}

// First match wins; tested against "url functionName".
const PARTS: Array<[string, RegExp]> = [
  [
    'protobuf messages (create, timestamps, row mappers)',
    /\/src\/core\/clock\.|-row\.js|@bufbuild\/protobuf\/dist\/esm\/(create|wkt|reflect)|\/src\/(iam|registry)\/.*\/(list|get)-|@bufbuild\/protobuf/,
  ],
  ['JSON writer + stringify', /\/src\/server\/rest\/json-writer\./],
  ['page token + fingerprint', /\/src\/core\/(page-token|list-params)\./],
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

function partOf(frame: CallFrame): string | undefined {
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(idle)') return 'idle';
  if (frame.functionName === '(program)') return 'V8 / native (unattributed)';
  const text = `${frame.url} ${frame.functionName}`;
  if (frame.url === '') return undefined;
  for (const [name, re] of PARTS) if (re.test(text)) return name;
  return undefined;
}

export function summarize(profile: CpuProfile): { parts: Array<[string, number]>; busyMs: number } {
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
      part = partOf(byId.get(cur)!.callFrame);
      cur = parent.get(cur);
    }
    const out = part ?? 'other (node internals)';
    charged.set(id, out);
    return out;
  };
  const totals = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const part = chargeOf(profile.samples[i]);
    totals.set(part, (totals.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  totals.delete('idle');
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  const parts = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / busy] as [string, number]);
  return { parts, busyMs: busy / 1000 };
}

export function formatSummary(title: string, file: string): string {
  const { parts, busyMs } = summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const lines = [`${title} (${(busyMs / 1000).toFixed(1)} s busy)`];
  for (const [name, share] of parts) lines.push(`  ${(share * 100).toFixed(1).padStart(5)} %  ${name}`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.js') && process.argv[2]) console.log(formatSummary(process.argv[2], process.argv[2]));
