// Scanning benchmark (npm run bench:scan).
// Builds once, into a temporary directory, an image of ~500 MB of file content
// in gzip layers (bench/scan-image.ts: a Wolfi apk database of 1,000 packages
// plus files of random content) and a feed of 50,000 advisories (the seeded
// test generator, imported with the real `berth advisories import` into a
// fresh SQLite database); then measures, in the same run:
//   the floor: the same layers read and decompressed with nothing else done —
//     `gunzip -c | tar t` and `tar -tzf` (child processes), and node's own
//     gunzip + tar-stream drain (bench/scan-step.ts);
//   Berth's inventory of them (inventoryLayers over the layer files), seconds
//     and peak RSS, of the whole image and of a ~100 MB variant (its first
//     layers): RSS should not grow with the image;
//   matching (matchInventory) of the inventory's packages against the
//     advisories, cold and warm.
//   re-match after an import changing 1 % of the advisories' packages,
//     against a full rescan of the 1,000 stored images, end to end against a
//     server (bench/scan-rematch.ts).
// Each timed step runs --runs times (median); each runs in a process of its
// own for its peak RSS. Aims printed as ratios: inventory ≤ 1.5× the floor,
// matching ≤ 200 ms, RSS growth from 100 MB to 500 MB small, re-match ≤ 5 %
// of a full rescan.
// Usage: npm run bench:scan [-- --size-mb 500 --small-mb 100 --layers 10 --packages 1000 --documents 5000 --runs 3
//          --rematch-images 1000 --packages-per-image 50 --keep]
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { firstStart, syncBuiltinRoles } from '../src/iam/first-start.js';
import type { Inventory } from '../src/scanning/inventory/inventory.js';
import { matchInventory } from '../src/scanning/matching/match-inventory.js';
import { openStore } from '../src/store/store.js';
import { generateAdvisories, renderYaml } from '../test/harness/advisory-generator.js';
import { median } from './bench-process.js';
import { type BenchLayer, writeContentLayer, writePackageLayer } from './scan-image.js';
import { benchRematch } from './scan-rematch.js';

const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
const STEP = join(import.meta.dirname, 'scan-step.js');

const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '500' },
    'small-mb': { type: 'string', default: '100' },
    layers: { type: 'string', default: '10' },
    packages: { type: 'string', default: '1000' },
    documents: { type: 'string', default: '5000' },
    advisories: { type: 'string', default: '10' },
    events: { type: 'string', default: '4' },
    seed: { type: 'string', default: '20261126' },
    runs: { type: 'string', default: '3' },
    'rematch-images': { type: 'string', default: '1000' },
    'packages-per-image': { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
  },
});
const SEED = Number(values.seed);
const RUNS = Math.max(1, Number(values.runs));
const MB = 1_000_000;

function run(file: string, args: string[]): Promise<{ stdout: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(file, args, { maxBuffer: 64 << 20, timeout: 3_600_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.slice(0, 2).join(' ')}… failed: ${stderr || err.message}`));
      else resolve({ stdout, ms: performance.now() - started });
    });
  });
}

interface Step {
  ms: number;
  maxRssKiB: number;
  [k: string]: unknown;
}

/** bench/scan-step.ts `args` RUNS times: the median time, the largest peak RSS, the last run's other fields. */
async function step(args: string[]): Promise<Step> {
  const runs: Step[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(JSON.parse((await run(process.execPath, [STEP, ...args])).stdout));
  return { ...runs[runs.length - 1], ms: median(runs.map((r) => r.ms)), maxRssKiB: Math.max(...runs.map((r) => r.maxRssKiB)) };
}

/** A shell pipeline over every layer, RUNS times: the median wall time. */
async function shellFloor(perLayer: string, layers: readonly BenchLayer[]): Promise<number> {
  const script = `for f in "$@"; do ${perLayer} > /dev/null; done`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push((await run('sh', ['-c', script, 'sh', ...layers.map((l) => l.file)])).ms);
  return median(times);
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const sec = (ms: number) => `${fmt(ms / 1000, 2)} s`;
const mib = (kib: number) => `${fmt(kib / 1024)} MiB`;

const root = mkdtempSync(join(tmpdir(), 'berth-bench-scan-'));
try {
  // The feed first: the image's packages are named after its packages.
  const feed = generateAdvisories(SEED, {
    documents: Number(values.documents),
    advisoriesPerDocument: Number(values.advisories),
    eventsPerAdvisory: Number(values.events),
  });
  const names = feed.documents.slice(0, Number(values.packages)).map((d) => d.origin);
  const feedDir = join(root, 'feed');
  mkdirSync(feedDir);
  let advisoryCount = 0;
  for (const doc of feed.documents) {
    writeFileSync(join(feedDir, `${doc.origin}.advisories.yaml`), renderYaml(doc));
    advisoryCount += doc.advisories.length;
  }

  const imageDir = join(root, 'image');
  mkdirSync(imageDir);
  const t0 = performance.now();
  const contentLayers = Number(values.layers);
  const perLayer = Math.ceil((Number(values['size-mb']) * MB) / contentLayers);
  const layers = [await writePackageLayer(imageDir, names, SEED)];
  for (let i = 1; i <= contentLayers; i++) layers.push(await writeContentLayer(imageDir, i, perLayer, SEED));
  const smallCount = 1 + Math.max(1, Math.round((Number(values['small-mb']) * MB) / perLayer));
  const small = layers.slice(0, smallCount);
  const total = (ls: readonly BenchLayer[]) => ({
    content: ls.reduce((a, l) => a + l.contentBytes, 0),
    compressed: ls.reduce((a, l) => a + l.size, 0),
    files: ls.reduce((a, l) => a + l.files, 0),
  });
  const big = total(layers);
  const little = total(small);
  console.log(
    `image: ${layers.length} gzip layers · ${fmt(big.content / MB)} MB of file content in ${fmt(big.files)} files · ${fmt(big.compressed / MB)} MB compressed · ` +
      `${names.length} apk packages (built in ${sec(performance.now() - t0)}); small variant: first ${small.length} layers, ${fmt(little.content / MB)} MB`,
  );
  console.log(`${cpus().length} cores, load ${loadavg()[0].toFixed(2)} (shared machine: figures vary) · ${RUNS} runs per figure, median`);

  // Page cache warm for every reader alike.
  for (const l of layers) readFileSync(l.file);

  const gunzipTar = await shellFloor('gunzip -c "$f" | tar t', layers);
  const tarAlone = await shellFloor('tar -tzf "$f"', layers);
  const nodeFloor = await step(['node-floor', ...layers.map((l) => l.file)]);
  const inventoryOut = join(root, 'inventory.json');
  const inventory = await step(['inventory', inventoryOut, ...layers.map((l) => l.file)]);
  const smallInventory = await step(['inventory', join(root, 'inventory-small.json'), ...small.map((l) => l.file)]);
  const smallFloor = await step(['node-floor', ...small.map((l) => l.file)]);

  console.log(`\ninventory of ${fmt(big.content / MB)} MB (${fmt(big.compressed / MB)} MB gzip)`);
  console.log(`  floor: gunzip -c | tar t     ${sec(gunzipTar)} (two processes: gunzip and tar run in parallel)`);
  console.log(`  floor: tar -tzf              ${sec(tarAlone)}`);
  console.log(
    `  floor: node gunzip + tar-stream drain  ${sec(nodeFloor.ms)} · peak RSS ${mib(nodeFloor.maxRssKiB)} · ${fmt(Number(nodeFloor.entries))} entries`,
  );
  console.log(
    `  Berth inventoryLayers        ${sec(inventory.ms)} · peak RSS ${mib(inventory.maxRssKiB)} · ${inventory.packages} packages, ${inventory.skipped} skipped`,
  );
  console.log(
    `  ratio: ${(inventory.ms / gunzipTar).toFixed(2)}× gunzip | tar t · ${(inventory.ms / tarAlone).toFixed(2)}× tar -tzf · ` +
      `${(inventory.ms / nodeFloor.ms).toFixed(2)}× node's drain`,
  );
  console.log(`\nRSS against image size (one process each)`);
  console.log(
    `  ${fmt(little.content / MB)} MB: inventory ${sec(smallInventory.ms)} · peak RSS ${mib(smallInventory.maxRssKiB)} (node's drain ${mib(smallFloor.maxRssKiB)})`,
  );
  console.log(
    `  ${fmt(big.content / MB)} MB: inventory ${sec(inventory.ms)} · peak RSS ${mib(inventory.maxRssKiB)} (node's drain ${mib(nodeFloor.maxRssKiB)})`,
  );
  const growth = inventory.maxRssKiB - smallInventory.maxRssKiB;

  // Matching: the advisories imported by the real CLI into a fresh SQLite database.
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const setup = await openStore({ dataDir, poolSize: 1 });
  try {
    await syncBuiltinRoles(setup);
    await firstStart(setup, 'bench.example', dataDir, 'http://127.0.0.1:0');
  } finally {
    await setup.close();
  }
  const imported = await run(process.execPath, [CLI, 'advisories', 'import', feedDir, '--data', dataDir, '-o', 'json']);
  const added = (JSON.parse(imported.stdout) as { imports: { added: number }[] }).imports[0].added;
  if (added !== advisoryCount) throw new Error(`expected ${advisoryCount} advisories imported, got ${added}`);
  const inv = JSON.parse(readFileSync(inventoryOut, 'utf8')) as Inventory;
  const store = await openStore({ dataDir });
  let matches = 0;
  const warm: number[] = [];
  let cold = 0;
  try {
    for (let i = 0; i <= 10; i++) {
      const t = performance.now();
      matches = (await matchInventory(store.db, inv)).length;
      if (i === 0) cold = performance.now() - t;
      else warm.push(performance.now() - t);
    }
  } finally {
    await store.close();
  }
  const warmMs = median(warm);
  console.log(`\nmatching (SQLite): ${inv.packages.length} packages against ${fmt(advisoryCount)} advisories (imported in ${sec(imported.ms)})`);
  console.log(`  matchInventory  cold ${fmt(cold)} ms · warm ${fmt(warmMs)} ms (median of 10) · ${fmt(matches)} matches`);

  // Re-match, end to end against a server (bench/scan-rematch.ts); 0 images skips it.
  const rematchImages = Number(values['rematch-images']);
  let rematchRatio: number | undefined;
  if (rematchImages > 0) {
    const r = await benchRematch(feedDir, { documents: feed.documents, images: rematchImages, perImage: Number(values['packages-per-image']), seed: SEED });
    const p = r.partial;
    console.log(
      `\nre-match (a server, SQLite): ${fmt(r.images)} images of ${values['packages-per-image']} packages each, inventoried and reported in ${sec(r.settleMs)}`,
    );
    console.log(
      `  import changing ${fmt(p.advisories)} advisories (${p.packages} packages, 1 %): import ${sec(p.importMs)} · then reports current ${sec(p.rematchMs)} ` +
        `(server CPU ${sec(p.cpuMs)}) · ${fmt(p.rewritten)} of ${fmt(r.images)} reports rewritten, ${fmt(p.rematched)} whole re-matches`,
    );
    console.log(
      `  full rescan (a re-match of every image queued): ${sec(r.full.rescanMs)} (server CPU ${sec(r.full.cpuMs)}) · ${fmt(r.full.rematched)} images re-matched, ` +
        `${fmt(r.full.rewritten)} reports rewritten (0: the splices wrote what a whole re-match writes)`,
    );
    rematchRatio = p.rematchMs / r.full.rescanMs;
    console.log(
      `  ratio: ${(rematchRatio * 100).toFixed(1)} % of the full rescan from the import's end to current reports; ` +
        `${((p.cpuMs / r.full.cpuMs) * 100).toFixed(1)} % of its server CPU; ${(((p.importMs + p.rematchMs) / r.full.rescanMs) * 100).toFixed(1)} % from the import's start`,
    );
  } else console.log('\nre-match: not measured (--rematch-images 0)');

  const aims = [
    `inventory ≤ 1.5× floor (gunzip | tar t): ${(inventory.ms / gunzipTar).toFixed(2)}× ${inventory.ms <= 1.5 * gunzipTar ? 'met' : 'NOT met'}`,
    `matching ≤ 200 ms: ${fmt(warmMs)} ms warm, ${fmt(cold)} ms cold ${warmMs <= 200 ? 'met' : 'NOT met'}`,
    `RSS growth ${fmt(little.content / MB)} → ${fmt(big.content / MB)} MB: ${growth >= 0 ? '+' : ''}${mib(growth)}`,
    rematchRatio === undefined
      ? 're-match ≤ 5 % of a full rescan: not measured'
      : `re-match ≤ 5 % of a full rescan: ${(rematchRatio * 100).toFixed(1)} % ${rematchRatio <= 0.05 ? 'met' : 'NOT met'}`,
  ];
  console.log(`\naims: ${aims.join(' · ')}`);
} finally {
  if (values.keep) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
