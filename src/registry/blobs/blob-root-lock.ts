// One process per filesystem blob root. An append in a second process could
// hold an upload file open across this one's commit and write into the
// committed blob (corrupting it in every repo that links it), so the server
// locks the root and a second server on the same --data refuses to start.
// The lock is SQLite's own file lock (fcntl), held by an open EXCLUSIVE
// transaction on an empty database file: the kernel drops it when the process
// dies, kill -9 included, so no stale lock blocks the next start (a lock file
// holding a pid would, once the pid is reused — in a container it always is).
// `berth registry gc` takes no lock: it is the one other process allowed on a
// root (see fs-blob-store.ts).
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export class BlobRootInUseError extends Error {
  constructor(readonly root: string) {
    super(
      `the registry's blob store ${root} is in use by another berth process (it holds ${lockPath(root)}): ` +
        'one --data serves one process; several instances share an S3 bucket instead (--blob-store s3://BUCKET/PREFIX)',
    );
    this.name = 'BlobRootInUseError';
  }
}

export function lockPath(root: string): string {
  return join(root, 'lock');
}

/** Takes the root's lock or throws BlobRootInUseError at once; resolves to its release. */
export function lockBlobRoot(root: string): () => void {
  const path = lockPath(root);
  closeSync(openSync(path, 'a', 0o600)); // created 0600 like every file in the data directory
  const db = new DatabaseSync(path, { timeout: 0 });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    const e = err as { code?: unknown; errcode?: unknown };
    if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && (e.errcode & 0xff) === 5) throw new BlobRootInUseError(root);
    throw err;
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    db.close(); // rolls the empty transaction back and unlocks
  };
}
