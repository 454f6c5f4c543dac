// Recognises "the disk is full": ENOSPC (or a quota, EDQUOT) from the
// filesystem, SQLITE_FULL from SQLite, 53100 disk_full from PostgreSQL. The
// request was fine and may succeed once space is freed, so transports answer
// it as retryable (registry 507, API 503, both with Retry-After) instead of
// an internal error, and /healthz reports degraded (storage-health.ts).
import { join } from 'node:path';

const SQLITE_FULL = 13;

export function isStorageFull(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; errcode?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') return (e.errcode & 0xff) === SQLITE_FULL;
  return e.code === 'ENOSPC' || e.code === 'EDQUOT' || e.code === '53100';
}

/** What filled up, for the log: the failing file's path, else the SQLite file or the data directory. Never request data. */
export function storageFullPath(err: unknown, dataDir: string): string {
  const e = err as { path?: unknown; code?: unknown };
  if (typeof e.path === 'string') return e.path;
  if (e.code === 'ERR_SQLITE_ERROR') return join(dataDir, 'berth.db');
  if (e.code === '53100') return 'the PostgreSQL server';
  return dataDir;
}
