// The image bench:scan measures, written as gzip layer blobs into a directory:
// layer 0 holds a Wolfi os-release and an apk database of `packages` entries
// (named after the generated advisory feed's packages, so matching finds
// some), the other layers files that make up the size: each half random
// bytes, half slices of a random-word text (gzip shrinks the text, not the
// random half, as in real images). File sizes, versions and text are seeded;
// the random half is not (it only has to be incompressible).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { mulberry32 } from '../test/harness/advisory-generator.js';
import { apkInstalled, osRelease } from '../test/harness/scan-images.js';

export interface BenchLayer {
  file: string;
  digest: string;
  /** Compressed bytes. */
  size: number;
  /** Bytes of file content in it. */
  contentBytes: number;
  files: number;
}

const WORDS = 'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were'.split(' ');

function wordText(rnd: () => number, bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = WORDS[Math.floor(rnd() * WORDS.length)];
    parts.push(w);
    n += w.length + 1;
  }
  return Buffer.from(parts.join(' ')).subarray(0, bytes);
}

async function writeLayer(file: string, entries: (add: (name: string, data: Buffer) => Promise<void>) => Promise<void>): Promise<BenchLayer> {
  const tar = pack();
  const gzip = createGzip();
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  let size = 0;
  gzip.on('data', (c: Buffer) => {
    hash.update(c);
    size += c.length;
  });
  tar.pipe(gzip).pipe(out);
  let contentBytes = 0;
  let files = 0;
  await entries(async (name, data) => {
    contentBytes += data.length;
    files++;
    await new Promise<void>((resolve, reject) => tar.entry({ name, size: data.length, mode: 0o644 }, data, (err) => (err ? reject(err) : resolve())));
    // Back-pressure: let the gzip stream drain before the next file.
    if (gzip.writableNeedDrain) await new Promise((r) => gzip.once('drain', r));
  });
  tar.finalize();
  await finished(out);
  return { file, digest: `sha256:${hash.digest('hex')}`, size, contentBytes, files };
}

/** The apk layer: os-release and `names.length` packages with seeded versions. */
export function writePackageLayer(dir: string, names: readonly string[], seed: number): Promise<BenchLayer> {
  const rnd = mulberry32(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const packages = names.map((name) => ({ name, version: `${1 + int(5)}.${int(20)}.${int(10)}-r${int(8)}`, license: 'MIT' }));
  return writeLayer(join(dir, 'layer-0.tar.gz'), async (add) => {
    await add('etc/os-release', Buffer.from(osRelease('wolfi', '20230201')));
    await add('lib/apk/db/installed', Buffer.from(apkInstalled(packages)));
  });
}

/** Content layer `index`: files of 4 KiB–256 KiB until `bytes`. */
export function writeContentLayer(dir: string, index: number, bytes: number, seed: number): Promise<BenchLayer> {
  const rnd = mulberry32(seed + index);
  const text = wordText(rnd, 4 << 20);
  return writeLayer(join(dir, `layer-${index}.tar.gz`), async (add) => {
    for (let written = 0, n = 0; written < bytes; n++) {
      const size = Math.min(bytes - written, 4096 + Math.floor(rnd() * (252 << 10)));
      const half = size >> 1;
      const at = Math.floor(rnd() * (text.length - (size - half)));
      await add(`usr/share/bench/${index}/${n % 64}/file-${n}.dat`, Buffer.concat([randomBytes(half), text.subarray(at, at + size - half)]));
      written += size;
    }
  });
}
