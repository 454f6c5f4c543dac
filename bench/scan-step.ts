// One measured step of bench:scan, in a process of its own so its peak RSS is
// its own: prints one JSON line {ms, maxRssKiB, …} on stdout. The peak is
// Linux's VmHWM, which starts afresh at exec; getrusage's maxrss carries the
// forking parent's over exec, so it would report the bench's own peak.
//   node-floor LAYER…           each gzip layer read, gunzipped and its tar entries drained
//                               (node:zlib + tar-stream), nothing else done
//   inventory OUT.json LAYER…   inventoryLayers over the layer files; the inventory is written to OUT.json
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { inventoryLayers } from '../src/scanning/inventory/inventory-layers.js';

const GZIP_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';

async function drain(file: string): Promise<number> {
  let entries = 0;
  const tar = extract();
  tar.on('entry', (_header, stream, next) => {
    entries++;
    stream.on('end', next);
    stream.resume();
  });
  await pipeline(createReadStream(file), createGunzip({ chunkSize: 256 * 1024 }), tar); // Berth's decompressed chunk (src/scanning/inventory/layer-stream.ts)
  return entries;
}

/** This process's peak RSS in KiB. */
function peakRssKiB(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // Not Linux: getrusage's figure, the parent's peak included.
  }
  return process.resourceUsage().maxRSS;
}

const [mode, ...rest] = process.argv.slice(2);
const started = performance.now();
let extra: Record<string, unknown>;
if (mode === 'node-floor') {
  let entries = 0;
  for (const file of rest) entries += await drain(file);
  extra = { entries };
} else if (mode === 'inventory') {
  const [out, ...files] = rest;
  const layers = files.map((file) => ({
    digest: `file:${file}`,
    mediaType: GZIP_LAYER,
    size: statSync(file).size,
    open: async () => createReadStream(file),
  }));
  const inventory = await inventoryLayers(layers);
  writeFileSync(out, JSON.stringify(inventory));
  extra = { packages: inventory.packages.length, skipped: inventory.skipped.length };
} else throw new Error(`unknown step ${mode}`);
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, maxRssKiB: peakRssKiB(), ...extra })}\n`);
