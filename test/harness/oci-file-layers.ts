// Image layers with real files, for inventory tests: a tar made with
// tar-stream, gzipped with zlib, streamed into an OCI layout's blobs (so a
// layer with a large file is never held in memory) and returned as a
// descriptor. Pair with writeImage's `fileLayers` (oci-layout.ts).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';

/** One file of a layer: its content, or a size of random bytes (a large file streamed). */
export type LayerFile = string | Uint8Array | { randomBytes: number };
/** Path (no leading slash) → file. */
export type LayerFiles = Record<string, LayerFile>;

export const OCI_LAYER_GZIP = 'application/vnd.oci.image.layer.v1.tar+gzip';

async function addEntry(pack: tar.Pack, name: string, file: LayerFile): Promise<void> {
  if (typeof file === 'string' || file instanceof Uint8Array) {
    const body = typeof file === 'string' ? Buffer.from(file) : Buffer.from(file);
    await new Promise<void>((resolve, reject) => pack.entry({ name, size: body.length, mode: 0o644 }, body, (err) => (err ? reject(err) : resolve())));
    return;
  }
  let settle: (err?: Error | null) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = (err) => (err ? reject(err) : resolve());
  });
  const entry = pack.entry({ name, size: file.randomBytes, mode: 0o755 }, (err) => settle(err));
  const piece = randomBytes(1 << 20);
  for (let left = file.randomBytes; left > 0; ) {
    const n = Math.min(left, piece.length);
    if (!entry.write(piece.subarray(0, n))) await new Promise<void>((r) => entry.once('drain', () => r()));
    left -= n;
  }
  entry.end(Buffer.alloc(0));
  await done;
}

/** Writes a gzipped tar of `files` into the layout's blobs; its descriptor. */
export async function writeFileLayer(dir: string, files: LayerFiles): Promise<{ mediaType: string; digest: string; size: number }> {
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  const tmp = join(dir, 'blobs', 'sha256', `tmp-${randomBytes(6).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _e, cb) {
      hash.update(chunk);
      size += chunk.length;
      cb(null, chunk);
    },
  });
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 1 }), count, createWriteStream(tmp));
  for (const [name, file] of Object.entries(files)) await addEntry(pack, name, file);
  pack.finalize();
  await written;
  const digest = `sha256:${hash.digest('hex')}`;
  renameSync(tmp, join(dir, 'blobs', 'sha256', digest.slice(7)));
  return { mediaType: OCI_LAYER_GZIP, digest, size };
}
