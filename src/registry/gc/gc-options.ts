// How a gc run is asked for: the two grace periods, whether untagged
// manifests go too, and whether anything changes at all. Times are measured
// against `now` (default: when the run starts), so the cutoffs are fixed for
// the whole run and anything pushed during it is inside the grace.
import type { BlobStore } from '../blobs/blob-store.js';
import type { Store } from '../../store/store.js';
import type { GcProgress } from './gc-report.js';

/** Longest grace accepted: a year. */
export const MAX_GRACE_MS = 366 * 24 * 3600 * 1000;
export const DEFAULT_GRACE_MS = 3600 * 1000;
export const DEFAULT_UPLOAD_GRACE_MS = 24 * 3600 * 1000;

export interface GcOptions {
  /** Manifests, blob links and blob files pushed more recently than this are kept (ms, 0 to MAX_GRACE_MS). */
  graceMs: number;
  /** Uploads started more recently than this are kept (ms). */
  uploadGraceMs: number;
  /** Also delete untagged manifests nothing live reaches (off by default, as in distribution's gc). */
  deleteUntagged: boolean;
  /** Report what would go, change nothing. */
  dryRun: boolean;
  /** The run's clock; default new Date(). */
  now?: Date;
  /** Called as work advances (often: throttle before printing). */
  onProgress?: (p: GcProgress) => void;
  /** Stops the run between two steps; the report says it was interrupted. */
  signal?: AbortSignal;
}

export interface GcTargets {
  store: Store;
  blobs: BlobStore;
}

/** The two cutoffs of a run as ISO text and Date: older than these is past the grace. */
export interface Cutoffs {
  content: Date;
  contentIso: string;
  uploads: Date;
}

export function cutoffsOf(opts: GcOptions): Cutoffs {
  for (const [name, ms] of [
    ['graceMs', opts.graceMs],
    ['uploadGraceMs', opts.uploadGraceMs],
  ] as const) {
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_GRACE_MS) throw new RangeError(`${name} must be a whole number of ms from 0 to ${MAX_GRACE_MS}`);
  }
  const now = (opts.now ?? new Date()).getTime();
  const content = new Date(now - opts.graceMs);
  return { content, contentIso: content.toISOString(), uploads: new Date(now - opts.uploadGraceMs) };
}
