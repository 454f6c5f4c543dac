// Giving memory back once, when the server starts serving: start-up
// (modules, migrations, first queries) leaves the young generation grown to
// its maximum and garbage in the old one, and an idle server allocates too
// little for V8 to collect them on its own. One full, shrinking collection
// takes idle RSS back down (docs/performance.md). Streamed bodies need no collection: their buffers are
// freed as they are written (release-buffer.ts).
// V8's collector is reached the way the expose-gc package does it, without
// putting `gc` on this context's global object.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; flavor: 'last-resort' }) => void;

/** Once the server is up: a full collection that also shrinks the young generation. */
export function releaseStartupMemory(): void {
  let collect: Collect;
  try {
    const exposed = process.execArgv.some((a) => a === '--expose-gc' || a === '--expose_gc');
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
    if (!exposed) setFlagsFromString('--no-expose-gc');
  } catch {
    return; // without it, V8's own heuristics: more memory, nothing lost
  }
  collect({ type: 'major', flavor: 'last-resort' });
}
