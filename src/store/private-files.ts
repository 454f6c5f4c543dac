// The data directory holds the SQLite database (signing keys, every secret)
// and the first-start credentials: Berth's files there are 0600 whatever the
// directory's mode or the umask, and a directory others can read is reported.
import { chmodSync, closeSync, openSync, statSync } from 'node:fs';

/**
 * Creates `file` empty with mode 0600 unless it exists, and narrows an existing
 * one to 0600. SQLite opens an existing empty file as a new database and
 * creates its -wal and -shm with the database file's mode, so they follow.
 */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  narrow(file);
}

/** Narrows files that may exist from an earlier run (e.g. berth.db-wal) to 0600. */
export function narrowIfPresent(...files: string[]): void {
  for (const f of files) {
    try {
      narrow(f);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

function narrow(file: string): void {
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}

/** A warning when other users may list or read the directory; undefined when it is private or absent. */
export function dataDirWarning(dir: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(dir).mode & 0o777;
  } catch {
    return undefined; // created 0700 on start
  }
  if ((mode & 0o004) === 0) return undefined;
  return (
    `the data directory ${dir} is readable by other users (mode ${mode.toString(8).padStart(4, '0')}); ` +
    `Berth's files in it are 0600, but consider: chmod 700 ${dir}`
  );
}
