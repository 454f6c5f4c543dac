// Blob store benchmark: a streamed upload + commit and a full read through
// FsBlobStore, each against its baseline measured in the same run on the
// same bytes: fs.createWriteStream behind a sha256 pass-through (then fsync,
// as the driver makes an append durable) and a plain fs.createReadStream.
// The source yields 64 KiB chunks, as a request body does; a pass over the
// source alone shows what generating the bytes costs. Runs alternate
// baseline and driver; medians are printed.
// Usage: node scripts/build.js && node dist/bench/blob-store.js [--mib 1024 --runs 3 --dir /path/on/the/disk/to/measure]
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { FsBlobStore } from '../src/registry/blobs/fs-blob-store.js';
import { parseDigest } from '../src/registry/content/digest.js';

const { values } = parseArgs({ options: { mib: { type: 'string', default: '1024' }, runs: { type: 'string', default: '3' }, dir: { type: 'string' } } });
const MiB = 1 << 20;
const SIZE = Number(values.mib) * MiB;
const RUNS = Number(values.runs);
const CHUNK = 64 * 1024;
const base = Buffer.alloc(MiB, 'berth blob bench ');

/** SIZE bytes in fresh 64 KiB chunks, each stamped with its offset so no two are alike. */
function source(): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < SIZE; at += CHUNK) {
        const chunk = Buffer.allocUnsafe(CHUNK);
        base.copy(chunk, 0, at % MiB);
        chunk.writeUInt32BE(at / CHUNK, 0);
        yield chunk;
      }
    })(),
  );
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return SIZE / 1e6 / ((performance.now() - t0) / 1000);
}

async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream);
}

const dir = mkdtempSync(join(values.dir ?? tmpdir(), 'berth-blob-bench-'));
try {
  const expected = createHash('sha256');
  for await (const chunk of source()) expected.update(chunk as Buffer);
  const digest = parseDigest(`sha256:${expected.digest('hex')}`)!;
  const store = await FsBlobStore.open(join(dir, 'registry'));
  const plain = join(dir, 'plain');
  const figures: Record<string, number[]> = { source: [], baselineWrite: [], driverWrite: [], baselineRead: [], driverRead: [] };

  for (let run = 0; run < RUNS; run++) {
    figures.source.push(await timed(() => drain(source())));
    figures.baselineWrite.push(
      await timed(async () => {
        const hash = createHash('sha256');
        const hashing = new Transform({
          transform(chunk: Buffer, _e, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        });
        await pipeline(source(), hashing, createWriteStream(plain));
        const file = await open(plain, 'r');
        await file.sync();
        await file.close();
        if (hash.digest('hex') !== digest.hex) throw new Error('baseline digest differs');
      }),
    );
    await store.delete(digest);
    figures.driverWrite.push(
      await timed(async () => {
        const { id } = await store.createUpload();
        await store.append(id, 0, source());
        await store.commit(id, digest);
      }),
    );
    figures.baselineRead.push(await timed(() => drain(createReadStream(plain))));
    figures.driverRead.push(await timed(async () => drain((await store.read(digest))!)));
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const f = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)]));
  const line = (label: string, mbs: number, baseline?: number) =>
    console.log(`${label.padEnd(58)} ${mbs.toFixed(0).padStart(6)} MB/s${baseline ? `   ${((mbs / baseline) * 100).toFixed(0)} % of baseline` : ''}`);
  console.log(`${SIZE / MiB} MiB in ${CHUNK / 1024} KiB chunks, medians of ${RUNS} runs, in ${dir}`);
  line('source alone (generating the chunks)', f.source);
  line('baseline: createWriteStream + sha256 + fsync', f.baselineWrite);
  line('FsBlobStore: createUpload + append + commit', f.driverWrite, f.baselineWrite);
  line('baseline: createReadStream', f.baselineRead);
  line('FsBlobStore: read', f.driverRead, f.baselineRead);
  console.log(`aim: push > 400 MB/s: ${f.driverWrite > 400 ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
