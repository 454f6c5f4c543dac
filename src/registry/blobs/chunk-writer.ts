// Streams one PATCH body into an upload file: bytes are counted against the
// limit and hashed on the way, and written with 1 MiB buffers (chunks that
// queue while a write is in flight go down together in one writev; the source
// is paused while they are queued). Memory stays at about the buffer size
// whatever the body's size, when the chunks are released as they are written
// (`owned`: see release-buffer.ts); others wait for the garbage collector.
// Every FLUSH_STEP bytes written, a datasync starts in the background (one at
// a time, not waited on by the writes): the disk writes a long body back while
// the rest arrives, instead of all of it in the append's closing fsync.
import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { releaseBuffer } from '../../core/release-buffer.js';
import { type ChunkOwnership, UploadTooLargeError } from './blob-store.js';

/** The read and write buffer size of the filesystem driver (measured with bench/blob-store.ts). */
export const IO_BUFFER = 1 << 20;
/** Bytes written between two background flushes of a chunk. */
export const FLUSH_STEP = 32 << 20;

/**
 * Writes `source` at `position` and resolves to the number of bytes written
 * (not yet fsynced). The source is never destroyed here: on a refusal (limit)
 * or a write error it is left to the caller, who may still want to answer
 * on its connection. The file handle stays open either way.
 */
export async function writeChunk(
  source: Readable,
  file: FileHandle,
  position: number,
  limit: number,
  hash: Hash | undefined,
  chunks: ChunkOwnership = 'borrowed',
): Promise<number> {
  let taken = 0;
  async function* counted() {
    for await (const chunk of source.iterator({ destroyOnReturn: false })) {
      if (!(chunk instanceof Uint8Array)) throw new TypeError('upload data must be a byte stream');
      taken += chunk.byteLength;
      if (taken > limit) throw new UploadTooLargeError(`upload chunk exceeds ${limit} bytes`);
      hash?.update(chunk);
      yield chunk;
    }
  }
  await pipeline(counted, fileSink(file, position, chunks === 'owned'));
  return taken;
}

/**
 * A Writable over an open handle that never closes it (an fs WriteStream
 * closes its descriptor when destroyed, as pipeline does on error). It ends
 * only once its background flush has: a flush's error fails the chunk (a
 * later fsync need not report a write-back error again).
 */
function fileSink(file: FileHandle, start: number, release: boolean): Writable {
  let position = start;
  let unflushed = 0;
  let flushing: Promise<void> | undefined;
  let flushError: unknown;
  const flushInBackground = () => {
    unflushed = 0;
    flushing = file.datasync().then(
      () => {
        flushing = undefined;
      },
      (err: unknown) => {
        flushError ??= err;
        flushing = undefined;
      },
    );
  };
  const write = async (buffers: Uint8Array[]) => {
    if (flushError !== undefined) throw flushError;
    let rest = buffers;
    while (rest.length > 0) {
      // A short count means the disk filled part way: write the rest, which then fails with the real error (ENOSPC).
      const { bytesWritten } = await file.writev(rest, position);
      if (bytesWritten === 0) throw new Error('write made no progress');
      position += bytesWritten;
      unflushed += bytesWritten;
      rest = after(rest, bytesWritten);
    }
    if (release) for (const b of buffers) releaseBuffer(b);
    if (unflushed >= FLUSH_STEP && flushing === undefined) flushInBackground();
  };
  const settled = async () => {
    await flushing;
    if (flushError !== undefined) throw flushError;
  };
  return new Writable({
    highWaterMark: IO_BUFFER,
    write(chunk: Uint8Array, _encoding, done) {
      write([chunk]).then(() => done(), done);
    },
    writev(chunks, done) {
      write(chunks.map((c) => c.chunk as Uint8Array)).then(() => done(), done);
    },
    final(done) {
      settled().then(() => done(), done);
    },
    destroy(err, done) {
      // Nothing may touch the file after an error but the caller's roll-back: it waits for the flush first.
      (flushing ?? Promise.resolve()).then(() => done(err));
    },
  });
}

/** What is left of `buffers` once their first `n` bytes are written. */
function after(buffers: Uint8Array[], n: number): Uint8Array[] {
  let i = 0;
  while (i < buffers.length && n >= buffers[i].byteLength) n -= buffers[i++].byteLength;
  if (i === buffers.length) return [];
  return [buffers[i].subarray(n), ...buffers.slice(i + 1)];
}
