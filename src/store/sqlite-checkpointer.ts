// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs
// inside the COMMIT that crosses its threshold: it copies the WAL back into
// the database file and fsyncs both while the event loop waits: most of an
// average COMMIT's time was the rare one that checkpointed
// (docs/performance.md). A worker thread with its own
// connection checkpoints instead (sqlite-checkpoint-worker.ts); the writer
// keeps an automatic checkpoint at a higher threshold only as a backstop, so
// the WAL stays bounded if the thread falls behind or dies.
import { Worker } from 'node:worker_threads';

/** How often the thread checks for commits to checkpoint. */
const INTERVAL_MS = 100;
/** WAL length (pages) above which a checkpoint briefly holds this process's writes so the WAL can restart. */
const RESTART_FRAMES = 2_000;
/** The writer's own automatic checkpoint (pages): reached only if the thread falls behind. */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;
/** The longest writes are held for the thread's closing pass. */
const HOLD_LIMIT_MS = 1_000;
const STOP_WAIT_MS = 5_000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export interface CheckpointerHooks {
  /** Runs `whileHeld` with this process's writes held (between transactions), or not at all if that cannot be had soon. */
  holdWrites(whileHeld: () => Promise<void>): Promise<void>;
  onError(err: Error): void;
}

export function startCheckpointer(file: string, hooks: CheckpointerHooks): Checkpointer {
  // Not unref'd: its message listener keeps the process alive regardless (measured); stop() ends it when the store closes.
  const worker = new Worker(new URL('./sqlite-checkpoint-worker.js', import.meta.url), {
    workerData: { file, intervalMs: INTERVAL_MS, restartFrames: RESTART_FRAMES },
  });
  worker.on('error', hooks.onError);
  let released: (() => void) | undefined;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      released?.();
      resolve();
    }),
  );
  worker.on('message', (m: unknown) => {
    if (m === 'release-writes') released?.();
    if (m !== 'hold-writes') return;
    let held = false;
    void hooks
      .holdWrites(
        () =>
          new Promise<void>((resolve) => {
            held = true;
            const timer = setTimeout(resolve, HOLD_LIMIT_MS);
            released = () => {
              clearTimeout(timer);
              released = undefined;
              resolve();
            };
            worker.postMessage('writes-held');
          }),
      )
      .then(() => {
        // Writes could not be held in time: the thread must not wait for them forever.
        if (!held) worker.postMessage('writes-not-held');
      });
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
