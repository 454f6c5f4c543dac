// The state one gc run carries through its phases: where content lives, the
// cutoffs, the report it fills in, and what a dry run has planned so far.
import type { BlobStore } from '../blobs/blob-store.js';
import type { Store } from '../../store/store.js';
import type { Cutoffs } from './gc-options.js';
import type { GcPhase, GcReport } from './gc-report.js';

export interface GcRun {
  store: Store;
  blobs: BlobStore;
  cutoffs: Cutoffs;
  dryRun: boolean;
  deleteUntagged: boolean;
  report: GcReport;
  /** Reports progress of a phase (the caller throttles what it prints). */
  progress(phase: GcPhase, done: number, total?: number): void;
  /** True once the run should stop (it then marks the report interrupted). */
  stopped(): boolean;
  /** Dry run only: blob digest → how many of its links the run would have removed, so blobs left with none count as deleted. */
  plannedUnlinks: Map<string, number>;
}
