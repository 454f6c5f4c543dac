// The WAL checkpointer's thread (sqlite-checkpointer.ts): its own connection
// copies committed WAL pages back into the database file while the event loop
// goes on serving. A PASSIVE checkpoint never waits for, or blocks, a reader
// or the writer; when another instance is checkpointing, this one finds it
// busy and tries again next time.
//
// A checkpoint that keeps up is not enough: the WAL only starts again from its
// beginning when a write begins with every frame already copied, and under a
// steady stream of commits some always arrive while a checkpoint runs, so the
// WAL (and the cost of each commit) would grow until the writer's backstop
// checkpoint stalled the event loop. So when the WAL is long, after the copy
// that runs beside the writes, this thread asks the main thread to hold its
// writes (the write gate, not the event loop) for one short pass over what
// arrived meanwhile; the next write then restarts the WAL.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, intervalMs, restartFrames } = workerData as { file: string; intervalMs: number; restartFrames: number };
const db = new DatabaseSync(file, { timeout: 0 });
// data_version changes only when another connection commits (this one never
// writes): an idle database costs one cheap pragma per interval.
const version = db.prepare('PRAGMA data_version');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen = -1;
let holding = false;
let stopping = false;

/** Frames in the WAL after a passive checkpoint, or -1 when it could not run. */
function copy(): number {
  try {
    const r = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    return r.busy ? -1 : r.log;
  } catch {
    return -1; // busy, or the disk is full: the next pass tries again (the writer's own autocheckpoint is the backstop)
  }
}

function pass(): void {
  if (holding || stopping) return;
  try {
    const v = (version.get() as { data_version: number }).data_version;
    if (v === seen) return;
    seen = v;
  } catch {
    return;
  }
  if (copy() >= restartFrames) {
    holding = true;
    parentPort?.postMessage('hold-writes');
  }
}

const timer = setInterval(pass, intervalMs);
parentPort?.on('message', (m: unknown) => {
  if (m === 'writes-held') {
    copy(); // nothing of this process writes now: this pass copies the rest
    holding = false;
    parentPort?.postMessage('release-writes');
    return;
  }
  if (m === 'writes-not-held') {
    holding = false; // the next pass asks again
    return;
  }
  if (m !== 'stop') return;
  stopping = true;
  clearInterval(timer);
  copy();
  db.close();
  parentPort?.close();
});
