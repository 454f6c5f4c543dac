// What a gc run did (or, with --dry-run, would do), and the progress it
// reports while it works. Counts are of things actually removed: an item gc
// planned to delete but found in use when it re-checked under its lock is
// kept and not counted.

export interface GcReport {
  dryRun: boolean;
  /** Untagged, unreferenced manifests deleted (only with deleteUntagged). */
  manifestsDeleted: number;
  /** Blob links taken from repos (no kept manifest of the repo lists the blob). */
  linksRemoved: number;
  /** Blobs deleted: rows no repo links, and files with no row. */
  blobsDeleted: number;
  /** Bytes of the blob files deleted. */
  bytesFreed: number;
  /** Upload sessions cancelled (in the database, in the blob store, or both). */
  uploadsCancelled: number;
  /** Repos looked at. */
  reposScanned: number;
  /** True when the run was stopped (a signal) before it finished. */
  interrupted: boolean;
}

export type GcPhase = 'uploads' | 'repos' | 'blobs' | 'files';

export interface GcProgress {
  phase: GcPhase;
  /** Items of the phase looked at so far (uploads, repos, blob rows, blob files). */
  done: number;
  /** How many there are, when known (repos). */
  total?: number;
  /** The counts so far. */
  report: Readonly<GcReport>;
}

export function emptyReport(dryRun: boolean): GcReport {
  return { dryRun, manifestsDeleted: 0, linksRemoved: 0, blobsDeleted: 0, bytesFreed: 0, uploadsCancelled: 0, reposScanned: 0, interrupted: false };
}
