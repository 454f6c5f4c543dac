// Turns one PATCH body into S3 multipart parts, as distribution's S3 driver
// does: bytes gather in a buffer of the part size (bounded memory: two
// buffers per append in progress, whatever the body's size), each full buffer
// goes up as the next part while the other fills, and what is left at the end (under a part) is
// the upload's new tail, kept as a small object until more bytes or the
// commit come. Bytes are counted against the limit and hashed on the way.
import type { Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { releaseBuffer } from '../../core/release-buffer.js';
import { type ChunkOwnership, UploadTooLargeError } from './blob-store.js';

export interface PartSink {
  /** Uploads `bytes` (exactly one part) as the next part. */
  part(bytes: Uint8Array): Promise<void>;
}

/**
 * Streams `source` after the `tail` bytes already held, handing each full
 * part to `sink`; resolves to the bytes taken from the source and the new
 * tail (a view into the buffer, under `partSize` bytes). The source is never
 * destroyed here (see BlobStore.append).
 */
export async function streamParts(
  source: Readable,
  tail: Uint8Array,
  partSize: number,
  limit: number,
  hash: Hash | undefined,
  sink: PartSink,
  chunks: ChunkOwnership,
): Promise<{ taken: number; tail: Uint8Array }> {
  // Two buffers: one part goes up while the next fills; the source waits (backpressure) when both are busy.
  const buffers = [Buffer.allocUnsafe(partSize), Buffer.allocUnsafe(partSize)];
  let current = 0;
  let filled = tail.byteLength;
  buffers[0].set(tail, 0);
  let inflight: Promise<void> | undefined;
  let taken = 0;
  try {
    for await (const chunk of source.iterator({ destroyOnReturn: false })) {
      if (!(chunk instanceof Uint8Array)) throw new TypeError('upload data must be a byte stream');
      taken += chunk.byteLength;
      if (taken > limit) throw new UploadTooLargeError(`upload chunk exceeds ${limit} bytes`);
      hash?.update(chunk);
      for (let at = 0; at < chunk.byteLength; ) {
        const n = Math.min(partSize - filled, chunk.byteLength - at);
        buffers[current].set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === partSize) {
          await inflight; // parts go up one at a time, in order
          inflight = sink.part(buffers[current]);
          inflight.catch(() => {}); // observed when awaited
          current ^= 1;
          filled = 0;
        }
      }
      if (chunks === 'owned') releaseBuffer(chunk);
    }
    await inflight;
  } catch (err) {
    await inflight?.catch(() => {}); // nothing writes into a buffer still going up
    throw err;
  }
  return { taken, tail: buffers[current].subarray(0, filled) };
}
