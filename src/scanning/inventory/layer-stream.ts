// A layer blob → its tar bytes, decompressed by media type (docker and OCI:
// `+gzip`/`.gzip`, `+zstd`/`.zstd`, plain tar) and metered: decompressed
// bytes per layer and per image, the compression ratio (a tar bomb) and the
// deadline. A bound ends the stream with a LayerBound naming it.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createGunzip, createZstdDecompress } from 'node:zlib';
import type { InventoryLimits } from './inventory-limits.js';

/** A bound reached while reading a layer: the reason goes into a SkippedEntry. */
export class LayerBound extends Error {}

export type Compression = 'gzip' | 'zstd' | 'none';

export function compressionOf(mediaType: string): Compression | undefined {
  const t = mediaType.toLowerCase();
  if (/[+.](gzip|gz)$/.test(t)) return 'gzip';
  if (/[+.]zstd$/.test(t)) return 'zstd';
  if (/[.]tar$/.test(t) || t === 'application/x-tar') return 'none';
  return undefined;
}

/**
 * The decompressor's output chunk. zlib's default (16 KiB) made every stream
 * after it — the meter, tar-stream, the entry readers — handle 16 times as
 * many chunks, and the layer read took twice the time (docs/performance.md).
 */
const DECOMPRESSED_CHUNK = 256 * 1024;

export function decompressor(compression: Compression): Transform | undefined {
  if (compression === 'gzip') return createGunzip({ chunkSize: DECOMPRESSED_CHUNK });
  if (compression === 'zstd') return createZstdDecompress({ chunkSize: DECOMPRESSED_CHUNK });
  return undefined;
}

/** Counts the bytes that pass; the compressed side of the ratio. */
export class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    cb(null, chunk);
  }
}

/** Tracks the decompressed bytes of an image across its layers. */
export interface ImageBudget {
  bytes: number;
  readonly deadline: number;
}

export class LayerMeter extends Transform {
  bytes = 0;

  constructor(
    private readonly limits: InventoryLimits,
    private readonly budget: ImageBudget,
    private readonly compressed: ByteCounter | undefined,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    this.budget.bytes += chunk.length;
    const bound = this.bound();
    if (bound) cb(new LayerBound(bound));
    else cb(null, chunk);
  }

  private bound(): string | undefined {
    const l = this.limits;
    if (this.bytes > l.maxLayerBytes) return `layer larger than ${l.maxLayerBytes} bytes decompressed; the rest was not read`;
    if (this.budget.bytes > l.maxImageBytes) return `image larger than ${l.maxImageBytes} bytes decompressed; the rest was not read`;
    if (this.compressed && this.bytes > l.ratioFloorBytes && this.bytes > this.compressed.bytes * l.maxCompressionRatio) {
      return `compression ratio above ${l.maxCompressionRatio}:1 (a tar bomb?); the rest was not read`;
    }
    if (Date.now() >= this.budget.deadline) return `time limit of ${l.timeoutMs} ms reached; the rest was not read`;
    return undefined;
  }
}

/** The blob's tar stream, and the meter that ends it at a bound. */
export function tarStream(raw: Readable, compression: Compression, limits: InventoryLimits, budget: ImageBudget): Readable[] {
  const unzip = decompressor(compression);
  const counter = unzip ? new ByteCounter() : undefined;
  const meter = new LayerMeter(limits, budget, counter);
  return unzip && counter ? [raw, counter, unzip, meter] : [raw, meter];
}
