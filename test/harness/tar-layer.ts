// Image layers built in memory for the inventory reader's tests: tar entries
// (files, directories, symlinks, hard links, whiteouts) packed with
// tar-stream and compressed as the layer's media type says.
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import tar from 'tar-stream';
import type { LayerSource } from '../../src/scanning/inventory/inventory-layers.js';

export type TarEntry = { name: string; data: string | Uint8Array; mode?: number } | { name: string; type: 'directory' | 'symlink' | 'link'; linkname?: string };

export const MEDIA = {
  gzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  dockerGzip: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
  zstd: 'application/vnd.oci.image.layer.v1.tar+zstd',
  tar: 'application/vnd.oci.image.layer.v1.tar',
} as const;

export async function tarBytes(entries: readonly TarEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) {
    if ('data' in e) pack.entry({ name: e.name, mode: e.mode ?? 0o644 }, typeof e.data === 'string' ? Buffer.from(e.data) : e.data);
    else pack.entry({ name: e.name, type: e.type, linkname: e.linkname, mode: 0o755 });
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A layer from bytes already made (to test hostile or oddly compressed blobs). */
export function blobLayer(blob: Uint8Array, mediaType: string): LayerSource {
  const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
  return { digest, mediaType, size: blob.byteLength, open: async () => Readable.from([Buffer.from(blob)]) };
}

export async function layer(entries: readonly TarEntry[], mediaType: string = MEDIA.gzip): Promise<LayerSource> {
  const raw = await tarBytes(entries);
  const blob = mediaType.endsWith('zstd') ? zstdCompressSync(raw) : mediaType.endsWith('tar') ? raw : gzipSync(raw);
  return blobLayer(blob, mediaType);
}

/** A layer streamed from a generator, never whole in memory: its tar bytes come from `chunks`. */
export function streamedLayer(digest: string, mediaType: string, chunks: () => AsyncIterable<Buffer> | Iterable<Buffer>): LayerSource {
  return { digest, mediaType, size: 0, open: async () => Readable.from(chunks()) };
}

/** A 512-byte ustar header for one regular file of `size` bytes (to stream a huge entry without tar-stream holding it). */
export function fileHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}
