// Whether writes are failing for lack of space. A refused write (ENOSPC,
// SQLITE_FULL, PostgreSQL's disk_full: isStorageFull) is noted here, logged
// once with what filled up, and /healthz reports `degraded` until a write
// succeeds again or none has failed this way for DEGRADED_MS (reads keep
// working, so the server stays in service). One per process, on the Runtime.
import type { Logger } from 'pino';
import { storageFullPath } from '../store/storage-full.js';

const DEGRADED_MS = 60_000;

export class StorageHealth {
  private failedAt: number | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
  ) {}

  /** Records a write refused for lack of space and logs the path that filled up (never the request's credentials). */
  noteFull(err: unknown, where: { method?: string; path?: string; rpc?: string }): void {
    this.failedAt = Date.now();
    const code = (err as { code?: unknown }).code;
    this.logger.error({ code, file: storageFullPath(err, this.dataDir), ...where }, 'storage full: writes fail until space is freed');
  }

  /** A write went through: there is room again. */
  noteWritten(): void {
    this.failedAt = undefined;
  }

  get degraded(): boolean {
    return this.failedAt !== undefined && Date.now() - this.failedAt < DEGRADED_MS;
  }
}
