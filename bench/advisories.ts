// Advisories benchmark.
// Import: generates a feed with the seeded test generator (default 5,000
// documents × 10 advisories × 4 events = 50,000 advisories / 200,000 events)
// as YAML files in a temporary directory, then runs `berth advisories import`
// as a child process on a fresh SQLite data directory (and on a fresh
// PostgreSQL database with --pg URL or BERTH_BENCH_PG=URL, a server Berth may
// create databases on): wall time, the child's own peak RSS and CPU time
// (it prints process.resourceUsage() with --stats), advisories/s and
// events/s; then the same import again (every file unchanged: the no-op
// re-import) and its share of the first; then with --force (every file
// parsed and diffed, nothing written). Aims: ≥ 20,000 events/s, no-op ≤ 10 %.
// Usage: npm run bench:advisories [-- --documents 5000 --advisories 10 --events 4 --pg postgres://…/postgres --keep]
// The List part (p50/p99 against a bare keyset route) is bench/advisories-list.ts.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { firstStart, syncBuiltinRoles } from '../src/iam/first-start.js';
import { openStore } from '../src/store/store.js';
import { generateAdvisories, renderYaml } from '../test/harness/advisory-generator.js';

const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');

const { values } = parseArgs({
  options: {
    documents: { type: 'string', default: '5000' },
    advisories: { type: 'string', default: '10' },
    events: { type: 'string', default: '4' },
    seed: { type: 'string', default: '20261122' },
    pg: { type: 'string', default: process.env.BERTH_BENCH_PG },
    keep: { type: 'boolean', default: false },
  },
});

interface ImportStats {
  wallMs: number;
  userCpuMs: number;
  systemCpuMs: number;
  maxRssKiB: number;
}

interface ImportRun {
  /** Measured by this process around the child. */
  wallMs: number;
  stats: ImportStats;
  added: number;
  changed: number;
  skippedFiles: number;
  rowsRead: number;
}

function runImport(dir: string, db: { dataDir: string; databaseUrl?: string }, extra: string[] = []): Promise<ImportRun> {
  const args = [CLI, 'advisories', 'import', dir, '--data', db.dataDir, '-o', 'json', '--stats', ...extra];
  if (db.databaseUrl) args.push('--database', db.databaseUrl);
  const env = { ...process.env };
  delete env.BERTH_DATABASE_URL;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env, maxBuffer: 64 << 20, timeout: 3_600_000 }, (err, stdout, stderr) => {
      const wallMs = performance.now() - started;
      if (err) return reject(new Error(`import failed: ${stderr || err.message}`));
      const out = JSON.parse(stdout) as {
        imports: { added: number; changed: number; skippedFiles: number; rowsRead: number }[];
        stats: ImportStats;
      };
      const s = out.imports[0];
      resolve({ wallMs, stats: out.stats, added: s.added, changed: s.changed, skippedFiles: s.skippedFiles, rowsRead: s.rowsRead });
    });
  });
}

function generate(dir: string): { files: number; advisories: number; events: number } {
  const feed = generateAdvisories(Number(values.seed), {
    documents: Number(values.documents),
    advisoriesPerDocument: Number(values.advisories),
    eventsPerAdvisory: Number(values.events),
  });
  let advisories = 0;
  let events = 0;
  for (const doc of feed.documents) {
    writeFileSync(join(dir, `${doc.origin}.advisories.yaml`), renderYaml(doc));
    advisories += doc.advisories.length;
    for (const a of doc.advisories) events += a.events.length;
  }
  return { files: feed.documents.length, advisories, events };
}

async function freshPg(admin: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `berth_bench_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function benchImport(label: string, dir: string, truth: { advisories: number; events: number }, db: { dataDir: string; databaseUrl?: string }) {
  // A migrated database with its organization (the import's default group), as a server's first start
  // leaves it (schema creation is not timed).
  mkdirSync(db.dataDir, { recursive: true });
  const store = await openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, poolSize: 1 });
  try {
    await syncBuiltinRoles(store);
    await firstStart(store, 'bench.example', db.dataDir, 'http://127.0.0.1:0');
  } finally {
    await store.close();
  }
  const first = await runImport(dir, db);
  if (first.added !== truth.advisories) throw new Error(`${label}: expected ${truth.advisories} advisories added, got ${first.added}`);
  const noop = await runImport(dir, db);
  if (noop.added + noop.changed !== 0) throw new Error(`${label}: the re-import changed ${noop.added + noop.changed} advisories`);
  const forced = await runImport(dir, db, ['--force']);
  if (forced.added + forced.changed !== 0) throw new Error(`${label}: the forced re-import changed ${forced.added + forced.changed} advisories`);
  const s = first.wallMs / 1000;
  console.log(`\n${label}`);
  console.log(
    `  first import      ${(first.wallMs / 1000).toFixed(2)} s wall (${(first.stats.wallMs / 1000).toFixed(2)} s in the command) · ` +
      `${fmt(truth.advisories / s)} advisories/s · ${fmt(truth.events / s)} events/s · peak RSS ${fmt(first.stats.maxRssKiB / 1024)} MiB · ` +
      `CPU ${fmt(first.stats.userCpuMs)} ms user + ${fmt(first.stats.systemCpuMs)} ms system`,
  );
  console.log(
    `  no-op re-import   ${(noop.wallMs / 1000).toFixed(2)} s wall · ${((noop.wallMs / first.wallMs) * 100).toFixed(1)} % of the first · ` +
      `${noop.skippedFiles} files skipped · peak RSS ${fmt(noop.stats.maxRssKiB / 1024)} MiB`,
  );
  console.log(
    `  --force re-import ${(forced.wallMs / 1000).toFixed(2)} s wall · ${((forced.wallMs / first.wallMs) * 100).toFixed(1)} % of the first · ` +
      `every file parsed and diffed, nothing written · peak RSS ${fmt(forced.stats.maxRssKiB / 1024)} MiB`,
  );
  const aims = [
    `events/s ≥ 20,000: ${truth.events / s >= 20_000 ? 'met' : 'NOT met'}`,
    `no-op ≤ 10 %: ${noop.wallMs / first.wallMs <= 0.1 ? 'met' : 'NOT met'}`,
  ];
  console.log(`  aims: ${aims.join(' · ')}`);
}

const root = mkdtempSync(join(tmpdir(), 'berth-bench-advisories-'));
try {
  const dir = join(root, 'feed');
  mkdirSync(dir);
  const t0 = performance.now();
  const truth = generate(dir);
  console.log(
    `feed: ${fmt(truth.files)} YAML documents · ${fmt(truth.advisories)} advisories · ${fmt(truth.events)} events ` +
      `(generated in ${((performance.now() - t0) / 1000).toFixed(1)} s) · ${cpus().length} cores, load ${loadavg()[0].toFixed(2)} (shared machine: figures vary)`,
  );
  await benchImport('SQLite', dir, truth, { dataDir: join(root, 'sqlite') });
  if (values.pg) {
    const db = await freshPg(values.pg);
    try {
      await benchImport('PostgreSQL', dir, truth, { dataDir: join(root, 'pg'), databaseUrl: db.url });
    } finally {
      await db.drop();
    }
  }
} finally {
  if (values.keep) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
