// bench:scan's re-match figure, end to end against a server: `berth serve` on
// a fresh SQLite data directory, the advisory feed imported with the real
// CLI, 1,000 small Wolfi images pushed over the registry protocol (each an
// apk database of `perImage` packages drawn from the feed's packages), and
// once Berth has inventoried and reported them all: an import that changes
// the advisories of 1 % of the feed's packages (each gets a newer `fixed`
// event), timed from its start and from its end until the advisory follower
// has handled the change log and no scan job is left (polling the
// database), with the server's CPU time over that span; then a full rescan, a
// re-match of every stored image queued at once (as a changed matcher would),
// timed until no job is left, with its CPU time and the reports it rewrote
// (none, when the splices wrote what a whole re-match does). The aim: the
// first ≤ 5 % of the second.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { enqueueScanJob } from '../src/scanning/jobs/enqueue-job.js';
import { JOB_PENDING, JOB_RUNNING } from '../src/scanning/jobs/job-states.js';
import { advisoryChangesPending } from '../src/scanning/reports/advisory-cursor.js';
import { REMATCH_JOB } from '../src/scanning/reports/rematch-job.js';
import { openStore, type Store } from '../src/store/store.js';
import { transact } from '../src/store/transact.js';
import type { NormalizedEvent } from '../src/vulnerabilities/import/normalized-advisory.js';
import { type GeneratedDocument, generateAdvisories, mulberry32, renderYaml } from '../test/harness/advisory-generator.js';
import { apkInstalled, osRelease } from '../test/harness/scan-images.js';
import { formatSummary, mainProfile } from './profile-summary.js';
import { cpuTimeUs, freePort, startNode, stopProcess } from './bench-process.js';

const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const BANNER = /berth is serving at (http\S+) .*\nregistry at (http\S+) \(public URL \S+; token audience ([^)\s]+)\)/;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

export interface RematchOptions {
  documents: readonly GeneratedDocument[];
  images: number;
  perImage: number;
  seed: number;
  /** Where the server writes a V8 CPU profile (node --cpu-prof), for --profile. */
  profileDir?: string;
}

export interface RematchResult {
  images: number;
  settleMs: number;
  partial: {
    packages: number;
    advisories: number;
    importMs: number;
    rematchMs: number;
    cpuMs: number;
    rewritten: number;
    rematched: number;
    /** The span from the import's end to current reports on the monotonic clock (µs), for a --cpu-prof of the server. */
    window: { from: number; to: number };
  };
  full: { rescanMs: number; cpuMs: number; rewritten: number; rematched: number };
}

/** The server's CPU time so far, in ms (bench-process.ts reads it from /proc). */
function cpuMs(pid: number | undefined): number {
  return (cpuTimeUs(pid) ?? 0) / 1000;
}

/** Berth's reports rewritten since `sinceIso`. */
async function rewritten(store: Store, sinceIso: string): Promise<number> {
  const r = await store.db
    .selectFrom('vuln_reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('scanner_name', '=', 'BERTH')
    .where('store_time', '>=', sinceIso)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

const sha256 = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

function cli(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [CLI, ...args], { maxBuffer: 64 << 20, timeout: 3_600_000 }, (err, _out, stderr) =>
      err ? reject(new Error(`berth ${args.slice(0, 2).join(' ')} failed: ${stderr || err.message}`)) : resolve(performance.now() - started),
    ),
  );
}

async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (c: unknown) => chunks.push(c as Buffer));
  const ended = new Promise<void>((r) => tar.on('end', () => r()));
  for (const [name, text] of Object.entries(files)) tar.entry({ name, mode: 0o644 }, text);
  tar.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** The owner's registry token for push and pull on ORG/rematch (the flow of bench/registry.ts). */
async function pushToken(dataDir: string, api: string, registry: string, audience: string): Promise<{ auth: string; name: string }> {
  const credentials = join(dataDir, 'admin-credentials.json');
  const org = (JSON.parse(readFileSync(credentials, 'utf8')) as { organization: { name: string } }).organization.name;
  const name = `${org}/rematch`;
  const minted = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [CLI, 'auth', 'token', '--credentials', credentials, '--api', api, '--audience', audience], (err, out, stderr) =>
      err ? reject(new Error(stderr)) : resolve(out.trim()),
    ),
  );
  const q = `scope=${encodeURIComponent(`repository:${name}:push,pull`)}&service=${encodeURIComponent(audience)}`;
  const res = await fetch(`${registry}/token?${q}`, { headers: { authorization: `Basic ${Buffer.from(`_token:${minted}`).toString('base64')}` } });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`GET /token answered ${res.status}`);
  return { auth: `Bearer ${body.token}`, name };
}

async function pushImage(registry: string, token: { auth: string; name: string }, tag: string, layer: Buffer): Promise<void> {
  const base = `${registry}/v2/${token.name}`;
  const blob = async (bytes: Buffer) => {
    const r = await fetch(`${base}/blobs/uploads/?digest=${sha256(bytes)}`, {
      method: 'POST',
      headers: { authorization: token.auth, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    if (r.status !== 201) throw new Error(`blob push answered ${r.status}: ${await r.text()}`);
    return { digest: sha256(bytes), size: bytes.length };
  };
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] }, config: {} }));
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...(await blob(config)) },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...(await blob(layer)) }],
    }),
  );
  const r = await fetch(`${base}/manifests/${tag}`, { method: 'PUT', headers: { authorization: token.auth, 'content-type': OCI_MANIFEST }, body: manifest });
  if (r.status !== 201) throw new Error(`manifest push answered ${r.status}: ${await r.text()}`);
}

/** How often settled() looks: its step is part of every span it times, so a small one (the reads are two indexed counts). */
const SETTLE_POLL_MS = 10;

/** Waits until the follower has handled the change log and no scan job is pending or running; the rematch jobs finished since `sinceIso`. */
async function settled(store: Store, sinceIso: string): Promise<number> {
  for (;;) {
    const busy = await store.db
      .selectFrom('scan_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', [JOB_PENDING, JOB_RUNNING])
      .executeTakeFirst();
    if (Number(busy?.n ?? 0) === 0 && !(await advisoryChangesPending(store))) {
      const done = await store.db
        .selectFrom('scan_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', REMATCH_JOB)
        .where('finish_time', '>=', sinceIso)
        .executeTakeFirst();
      return Number(done?.n ?? 0);
    }
    await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
  }
}

/** The documents with a newer `fixed` event on every advisory, as YAML files in a new directory. */
function changedFeed(root: string, label: string, docs: readonly GeneratedDocument[], round: number): string {
  const dir = join(root, label);
  mkdirSync(dir);
  for (const doc of docs) {
    const advisories = doc.advisories.map((a) => ({
      ...a,
      events: [
        ...a.events,
        {
          time: `2026-0${round}-01T00:00:00.000Z`,
          kind: 'fixed' as const,
          payload: { fixedVersion: `9.${round}.0-r0` },
          author: 'import:yaml',
          reviewer: '',
          reviewState: 'REVIEW_STATE_APPROVED',
        } satisfies NormalizedEvent,
      ],
    }));
    writeFileSync(join(dir, `${doc.origin}.advisories.yaml`), renderYaml({ ...doc, advisories }));
  }
  return dir;
}

export async function benchRematch(feedDir: string, o: RematchOptions): Promise<RematchResult> {
  const root = mkdtempSync(join(tmpdir(), 'berth-bench-rematch-'));
  const dataDir = join(root, 'data');
  const [apiPort, registryPort] = [await freePort(), await freePort()];
  const { child, match } = await startNode(
    [
      ...(o.profileDir ? ['--cpu-prof', '--cpu-prof-dir', o.profileDir] : []),
      CLI,
      'serve',
      '--data',
      dataDir,
      '--listen',
      `127.0.0.1:${apiPort}`,
      '--registry-listen',
      `127.0.0.1:${registryPort}`,
      '--log-level',
      'warn',
    ],
    BANNER,
  );
  const [, api, registry, audience] = match;
  let store: Store | undefined;
  try {
    await cli(['advisories', 'import', feedDir, '--data', dataDir]);
    store = await openStore({ dataDir });
    const token = await pushToken(dataDir, api, registry, audience);
    const rnd = mulberry32(o.seed);
    const int = (n: number) => Math.floor(rnd() * n);
    const names = o.documents.map((d) => d.origin);
    const t0 = performance.now();
    for (let i = 0; i < o.images; i++) {
      const chosen = new Set<string>();
      while (chosen.size < o.perImage) chosen.add(names[int(names.length)]);
      const packages = [...chosen].map((name) => ({ name, version: `${1 + int(5)}.${int(20)}.${int(10)}-r${int(8)}` }));
      const layer = await tarGz({ 'etc/os-release': osRelease('wolfi', '20230201'), 'lib/apk/db/installed': apkInstalled(packages) });
      await pushImage(registry, token, `i${i}`, layer);
    }
    await settled(store, '');
    const settleMs = performance.now() - t0;

    const round = async (label: string, docs: readonly GeneratedDocument[], n: number) => {
      const dir = changedFeed(root, label, docs, n);
      const since = new Date().toISOString();
      const importMs = await cli(['advisories', 'import', dir, '--data', dataDir]);
      const t = performance.now();
      const from = Number(process.hrtime.bigint() / 1000n);
      const cpu = cpuMs(child.pid);
      const rematched = await settled(store as Store, since);
      const to = Number(process.hrtime.bigint() / 1000n);
      return {
        packages: docs.length,
        advisories: docs.reduce((a, d) => a + d.advisories.length, 0),
        importMs,
        rematchMs: performance.now() - t,
        cpuMs: cpuMs(child.pid) - cpu,
        rewritten: await rewritten(store as Store, since),
        rematched,
        window: { from, to },
      };
    };
    const shuffled = [...o.documents];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    const partial = await round('partial', shuffled.slice(0, Math.max(1, Math.round(o.documents.length / 100))), 1);
    const since = new Date().toISOString();
    const t1 = performance.now();
    const cpu1 = cpuMs(child.pid);
    const digests = (await store.db.selectFrom('scan_inventories').select('digest').execute()).map((r) => r.digest);
    await transact(store, async (tx) => {
      for (const d of digests) await enqueueScanJob(tx, REMATCH_JOB, d, { again: true });
    });
    const rematched = await settled(store, since);
    const full = { rescanMs: performance.now() - t1, cpuMs: cpuMs(child.pid) - cpu1, rewritten: await rewritten(store, since), rematched };
    return { images: o.images, settleMs, partial, full };
  } finally {
    await store?.close();
    await stopProcess(child);
    rmSync(root, { recursive: true, force: true });
  }
}

// Alone (the re-match figure without the rest of bench:scan):
//   node dist/bench/scan-rematch.js [--images 1000] [--packages-per-image 50] [--documents 5000] [--profile]
// --profile: the server runs under node --cpu-prof; the re-match span's profile is summarized.
if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      images: { type: 'string', default: '1000' },
      'packages-per-image': { type: 'string', default: '50' },
      documents: { type: 'string', default: '5000' },
      seed: { type: 'string', default: '20261126' },
      profile: { type: 'boolean', default: false },
    },
  });
  const seed = Number(values.seed);
  const feed = generateAdvisories(seed, { documents: Number(values.documents), advisoriesPerDocument: 10, eventsPerAdvisory: 4 });
  const feedDir = mkdtempSync(join(tmpdir(), 'berth-bench-rematch-feed-'));
  try {
    for (const doc of feed.documents) writeFileSync(join(feedDir, `${doc.origin}.advisories.yaml`), renderYaml(doc));
    const profileDir = values.profile ? mkdtempSync(join(tmpdir(), 'berth-bench-rematch-prof-')) : undefined;
    const r = await benchRematch(feedDir, {
      documents: feed.documents,
      images: Number(values.images),
      perImage: Number(values['packages-per-image']),
      seed,
      ...(profileDir ? { profileDir } : {}),
    });
    console.log(JSON.stringify(r, null, 2));
    if (profileDir) {
      console.log(formatSummary('the server while re-matching', mainProfile(profileDir), undefined, 30, r.partial.window));
      rmSync(profileDir, { recursive: true, force: true });
    }
    console.log(
      `re-match: ${((r.partial.rematchMs / r.full.rescanMs) * 100).toFixed(1)} % of the full rescan's time, ${((r.partial.cpuMs / r.full.cpuMs) * 100).toFixed(1)} % of its server CPU`,
    );
  } finally {
    rmSync(feedDir, { recursive: true, force: true });
  }
}
