// Libraries benchmark: a generated catalogue of N artifacts (default 100,000)
// with V versions each (default 10: 1,000,000 versions), written through the
// catalogue's one writer in bulk, then req/s of ListArtifacts (page 1 and
// page 1,000 by page token) and ListArtifactVersions (a different artifact
// each request), each beside a bare keyset route over the same tables in the
// same run (bench/libraries-bare-server.ts). Floors checked in the run:
// Berth ≥ 60 % of the bare route, page 1,000 ≤ 1.2 × page 1 in time per request.
// Usage: npm run bench:libraries [-- --artifacts N --versions V --seconds S --database postgres://… (a fresh database)]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { CatalogueArtifact } from '../src/libraries/catalogue-writer.js';
import { writeCatalogue } from '../src/libraries/catalogue-writer.js';
import { openStore } from '../src/store/store.js';
import { transact } from '../src/store/transact.js';
import { freePort, medianResult, pinLoadToCore1, startNode, stopProcess } from './bench-process.js';
import { measurePhase } from './measure-load.js';
import { formatResult, type LoadResult, type RequestSpec } from './load.js';

const { values } = parseArgs({
  options: {
    artifacts: { type: 'string', default: '100000' },
    versions: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
    'warmup-seconds': { type: 'string', default: '2' },
    connections: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    database: { type: 'string' },
  },
});
const ARTIFACTS = Number(values.artifacts);
const VERSIONS = Number(values.versions);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values['warmup-seconds']);
const CONNECTIONS = Number(values.connections);
const RUNS = Number(values.runs);
const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const BARE = join(import.meta.dirname, 'libraries-bare-server.js');
const BATCH = 2000;

pinLoadToCore1();

const name = (i: number) => `lib-${String(i).padStart(6, '0')}`;

async function seed(dataDir: string, group: string): Promise<void> {
  const t0 = performance.now();
  const store = await openStore({ dataDir, databaseUrl: values.database });
  const at = (i: number, k: number) => new Date(Date.parse('2020-01-01T00:00:00Z') + (i * VERSIONS + k) * 1000).toISOString();
  for (let start = 0; start < ARTIFACTS; start += BATCH) {
    const batch: CatalogueArtifact[] = [];
    for (let i = start; i < Math.min(ARTIFACTS, start + BATCH); i++) {
      // Versions in an order the text order gets wrong (1.10.0 after 1.9.0, a pre-release, a post-release).
      const versions = Array.from({ length: VERSIONS }, (_, k) => (k === 0 ? '1.0.0rc1' : k === 1 ? '1.0.0.post1' : `1.${k}.0`));
      batch.push({
        ecosystem: 'python',
        uid: `pypi:${name(i)}`,
        name: name(i),
        versions: versions.map((version, k) => ({
          version,
          description: `Library ${i}, version ${version}`,
          sizeBytes: 10_000 + k,
          createTime: at(i, k),
          updateTime: at(i, k),
          remediated: false,
          cudaVersion: '',
        })),
      });
    }
    await transact(store, (tx) => writeCatalogue(tx, group, batch));
  }
  await sql`analyze`.execute(store.db);
  await store.close();
  console.log(`seeded ${ARTIFACTS} artifacts, ${ARTIFACTS * VERSIONS} versions through the writer in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

function measure(url: string, next: (i: number) => RequestSpec, pid?: number): Promise<LoadResult> {
  return measurePhase(url, next, pid, { connections: CONNECTIONS, warmupSeconds: WARMUP, seconds: SECONDS });
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-libs-'));
  const port = await freePort();
  const serveArgs = [CLI, 'serve', '--listen', `127.0.0.1:${port}`, '--registry-listen', 'off', '--data', dataDir, '--log-level', 'warn'];
  if (values.database) serveArgs.push('--database', values.database);
  const start = async () => {
    const s = await startNode(serveArgs, /berth is serving at (http\S+)/);
    return { child: s.child, url: s.match[1] };
  };
  await stopProcess((await start()).child);
  const creds = JSON.parse(readFileSync(join(dataDir, 'admin-credentials.json'), 'utf8')) as { organization: { uid: string } };
  const org = creds.organization.uid;
  await seed(dataDir, org);

  const berth = await start();
  const token = spawnSync(process.execPath, [CLI, 'auth', 'token', '--credentials', join(dataDir, 'admin-credentials.json'), '--api', berth.url], {
    encoding: 'utf8',
  }).stdout.trim();
  const headers = { authorization: `Bearer ${token}` };
  const bare = await startNode([BARE, values.database ?? join(dataDir, 'berth.db'), org], /bare at (http\S+)/);
  const bareUrl = bare.match[1];

  // The page token of page 1,000 (rows 49,951–50,000), by paging there.
  const list = '/libraries/v2/artifacts?ecosystems=ECOSYSTEM_PYTHON&pageSize=50';
  let pageToken = '';
  let bareAfter = '';
  const pages = Math.min(1000, Math.floor(ARTIFACTS / 50));
  for (let p = 1; p < pages; p++) {
    const r = (await (await fetch(`${berth.url}${list}&pageToken=${encodeURIComponent(pageToken)}`, { headers })).json()) as {
      nextPageToken: string;
      artifacts: Array<{ name: string }>;
    };
    pageToken = r.nextPageToken;
    const last = r.artifacts[r.artifacts.length - 1].name;
    bareAfter = `name=${last}&key=${encodeURIComponent(`${org} pypi:${last}`)}`;
  }
  const random = (i: number) => name((i * 7919) % ARTIFACTS);
  const cases: Array<{ label: string; berth: (i: number) => RequestSpec; bare: (i: number) => RequestSpec }> = [
    { label: 'artifacts page 1', berth: () => ({ method: 'GET', path: list, headers }), bare: () => ({ method: 'GET', path: '/artifacts' }) },
    {
      label: `artifacts page ${pages}`,
      berth: () => ({ method: 'GET', path: `${list}&pageToken=${encodeURIComponent(pageToken)}`, headers }),
      bare: () => ({ method: 'GET', path: `/artifacts?${bareAfter}` }),
    },
    {
      label: 'versions (version desc)',
      berth: (i) => ({ method: 'GET', path: `/libraries/v2/artifacts/pypi:${random(i)}/versions`, headers }),
      bare: (i) => ({ method: 'GET', path: `/versions/pypi:${random(i)}` }),
    },
  ];
  console.log(
    `\n${ARTIFACTS} artifacts, ${ARTIFACTS * VERSIONS} versions, ${values.database ? 'PostgreSQL' : 'SQLite'}, ${CONNECTIONS} connections, median of ${RUNS} runs of ${SECONDS} s after ${WARMUP} s warm-up\n`,
  );
  const results = new Map<string, { berth: LoadResult; bare: LoadResult }>();
  for (const c of cases) {
    // Berth and the bare route alternate, run after run: load from elsewhere on the machine falls on both.
    const berthRuns: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    for (let run = 0; run < RUNS; run++) {
      berthRuns.push(await measure(berth.url, c.berth, berth.child.pid));
      bareRuns.push(await measure(bareUrl, c.bare, bare.child.pid));
    }
    const b = medianResult(berthRuns);
    const r = medianResult(bareRuns);
    results.set(c.label, { berth: b, bare: r });
    console.log(formatResult(`Berth ${c.label}`.padEnd(36), b));
    console.log(formatResult(`bare  ${c.label}`.padEnd(36), r));
    const cpu = b.cpuUs && r.cpuUs ? `, CPU per request ${((100 * r.cpuUs) / b.cpuUs).toFixed(0)} %` : '';
    console.log(`  Berth/bare ${((100 * b.rps) / r.rps).toFixed(0)} % of the req/s (floor 60 %)${cpu}`);
  }
  const p1 = results.get('artifacts page 1')!.berth;
  const pN = results.get(`artifacts page ${pages}`)!.berth;
  console.log(`\npage ${pages} / page 1 time per request: ${(p1.rps / pN.rps).toFixed(2)} (floor ≤ 1.2)`);
  const failed: string[] = [];
  for (const [label, r] of results) if (r.berth.rps < 0.6 * r.bare.rps) failed.push(`${label}: Berth below 60 % of the bare route`);
  if (p1.rps / pN.rps > 1.2) failed.push(`page ${pages} slower than 1.2 × page 1`);
  await stopProcess(bare.child);
  await stopProcess(berth.child);
  rmSync(dataDir, { recursive: true, force: true }); // on SQLite, a gigabyte
  if (failed.length > 0) {
    console.log(`\nbelow the floor:\n  ${failed.join('\n  ')}`);
    process.exitCode = 1;
  }
}

await main();
