// A lock file beside the SQLite database, so processes sharing one file run
// migrations one at a time (SQLite has no advisory locks). Used through the
// SQLite adapter's acquireMigrationLock hook.
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const STALE_MS = 120_000;
const WAIT_MS = 60_000;

/** Waits for the lock and returns its release. */
export async function acquireFileLock(path: string): Promise<() => void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(path).mtimeMs > STALE_MS) unlinkSync(path); // a crashed holder
      } catch {
        // gone meanwhile: try again
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${path}`);
      await sleep(50);
    }
  }
  return () => {
    try {
      unlinkSync(path);
    } catch {
      // already removed
    }
  };
}
