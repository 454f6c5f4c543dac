// Giving memory back at the two moments V8's own heuristics handle badly in a
// server whose resident size is watched (measured with bench/registry.ts):
// - Start-up (modules, migrations, first queries) leaves the young
//   generation grown to its maximum and garbage in the old one: one full,
//   shrinking collection once the server is up takes idle RSS 143 → ~120 MB.
// - Streamed request bodies (blob uploads): every socket read is a fresh
//   64 KiB buffer whose JS object is a few dozen bytes, so the young
//   generation fills, and is collected, only every few hundred MB of body;
//   the buffers pile up until V8's external-memory limit (64 MB) forces a
//   full collection. A young-generation collection every
//   BODY_BYTES_PER_COLLECTION frees them while they are still in cache: peak
//   RSS during a 1 GiB push 215 → ~130 MB, and push 244 → ~500 MB/s at half
//   the CPU per GB (the allocator reuses warm memory instead of faulting in
//   new pages).
// V8's collector is reached the way the expose-gc package does it, without
// putting `gc` on this context's global object.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Body bytes streamed between two young-generation collections. */
export const BODY_BYTES_PER_COLLECTION = 4 * 1024 * 1024;

type Collect = (options: { type: 'major' | 'minor'; flavor?: 'regular' | 'last-resort' }) => void;

let collector: Collect | null | undefined;

function collect(): Collect | null {
  if (collector !== undefined) return collector;
  try {
    const exposed = process.execArgv.some((a) => a === '--expose-gc' || a === '--expose_gc');
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as Collect;
    if (!exposed) setFlagsFromString('--no-expose-gc');
  } catch {
    collector = null; // without it, V8's own heuristics: more memory, nothing lost
  }
  return collector;
}

/** Once the server is up: a full collection that also shrinks the young generation. */
export function releaseStartupMemory(): void {
  collect()?.({ type: 'major', flavor: 'last-resort' });
}

let streamed = 0;

/** Counts `bytes` of a body streamed through this process (a blob upload; a load generator's responses); collects the young generation every BODY_BYTES_PER_COLLECTION. */
export function noteStreamedBytes(bytes: number): void {
  streamed += bytes;
  if (streamed < BODY_BYTES_PER_COLLECTION) return;
  streamed = 0;
  collect()?.({ type: 'minor' });
}
