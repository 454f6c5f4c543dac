// An image's layers as the inventory reader takes them: each opened from the
// blob store when the reader gets to it, its compressed bytes counted into the
// job's progress as they stream by, and the layer counted done when its
// stream ends. A layer whose bytes are not in the blob store (a
// non-distributable layer kept elsewhere) is left out and reported skipped.
import { Transform, type Readable } from 'node:stream';
import type { BlobStore } from '../../registry/blobs/blob-store.js';
import type { Descriptor } from '../../registry/content/descriptor.js';
import { parseDigest } from '../../registry/content/digest.js';
import type { SkippedEntry } from '../inventory/inventory.js';
import type { JobProgress } from './job-progress.js';

export interface LayerInput {
  digest: string;
  mediaType: string;
  size: number;
  open(): Promise<Readable>;
}

function counted(body: Readable, progress: JobProgress, signal: AbortSignal): Readable {
  let finished = false;
  const done = () => {
    if (finished) return;
    finished = true;
    progress.layerDone();
  };
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (signal.aborted) return cb(signal.reason instanceof Error ? signal.reason : new Error('scan stopped'));
      progress.read(chunk.byteLength);
      cb(null, chunk);
    },
    flush(cb) {
      done();
      cb();
    },
  });
  body.on('error', (err) => meter.destroy(err));
  return body.pipe(meter);
}

export async function layerSources(
  blobs: BlobStore,
  layers: readonly Descriptor[],
  progress: JobProgress,
  signal: AbortSignal,
): Promise<{ sources: LayerInput[]; skipped: SkippedEntry[] }> {
  const sources: LayerInput[] = [];
  const skipped: SkippedEntry[] = [];
  for (const d of layers) {
    const digest = parseDigest(d.digest);
    if (!digest || !(await blobs.stat(digest))) {
      skipped.push({ layer: d.digest, path: '', reason: 'the layer is not in this registry (non-distributable or missing)' });
      continue;
    }
    sources.push({
      digest: d.digest,
      mediaType: d.mediaType,
      size: d.size,
      async open() {
        const body = await blobs.read(digest);
        if (!body) throw new Error(`layer ${d.digest} vanished from the blob store`);
        return counted(body, progress, signal);
      },
    });
  }
  progress.setTotal(sources.length);
  return { sources, skipped };
}
