// One `berth libraries import` run: reads the mirror (read-mirror.ts), then
// writes its artifacts into the group's catalogue through the one writer, a
// transaction per batch of artifacts. --dry-run runs the same writes in one
// transaction that is rolled back, so its summary is what a real run would
// report. Idempotent: a second run of the same mirror writes nothing.
import type { Store } from '../../store/store.js';
import { transact, type Tx } from '../../store/transact.js';
import { resolveImportGroup } from '../../vulnerabilities/import/import-group.js';
import { type CatalogueArtifact, type WriteCounts, writeCatalogue } from '../catalogue-writer.js';
import type { Problem } from './import-problem.js';
import { type MirrorRead, readMirror } from './read-mirror.js';

export interface CatalogueImportOptions {
  dir: string;
  /** --group: a group uid or name; default the first-start organization. */
  group?: string;
  dryRun: boolean;
  onProgress?: (p: CatalogueProgress) => void;
  /** Artifacts per transaction. */
  batchArtifacts?: number;
}

export interface CatalogueProgress {
  phase: 'read' | 'write';
  files: number;
  artifacts: number;
  written: number;
  problems: number;
}

export interface CatalogueImportSummary extends WriteCounts {
  group: string;
  groupName: string;
  dryRun: boolean;
  files: number;
  artifacts: Record<'python' | 'java' | 'javascript', number>;
  versionsRead: number;
  problems: Problem[];
}

const BATCH_ARTIFACTS = 2000;

class Rollback extends Error {}

export async function importCatalogue(store: Store, opts: CatalogueImportOptions): Promise<CatalogueImportSummary> {
  const progress = (read: Pick<MirrorRead, 'files' | 'artifacts' | 'problems'>, phase: 'read' | 'write', written: number) =>
    opts.onProgress?.({ phase, files: read.files, artifacts: read.artifacts.size, written, problems: read.problems.length });
  const read = await readMirror(opts.dir, (r) => progress(r, 'read', 0));
  const all = [...read.artifacts.values()].sort((a, b) => (a.uid < b.uid ? -1 : 1));
  const summary: CatalogueImportSummary = {
    group: '',
    groupName: '',
    dryRun: opts.dryRun,
    files: read.files,
    artifacts: { python: 0, java: 0, javascript: 0 },
    versionsRead: 0,
    problems: read.problems,
    artifactsAdded: 0,
    artifactsChanged: 0,
    versionsAdded: 0,
    versionsChanged: 0,
    versionsUnchanged: 0,
  };
  for (const a of all) {
    summary.artifacts[a.ecosystem]++;
    summary.versionsRead += a.versions.length;
  }
  const size = opts.batchArtifacts ?? BATCH_ARTIFACTS;
  const run = async (inTx: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>) => {
    const group = await inTx((tx) => resolveImportGroup(tx, opts.group));
    summary.group = group.uid;
    summary.groupName = group.name;
    for (let i = 0; i < all.length; i += size) {
      const batch: CatalogueArtifact[] = all.slice(i, i + size);
      const c = await inTx((tx) => writeCatalogue(tx, group.uid, batch));
      summary.artifactsAdded += c.artifactsAdded;
      summary.artifactsChanged += c.artifactsChanged;
      summary.versionsAdded += c.versionsAdded;
      summary.versionsChanged += c.versionsChanged;
      summary.versionsUnchanged += c.versionsUnchanged;
      progress(read, 'write', Math.min(all.length, i + size));
    }
  };
  if (opts.dryRun) {
    try {
      await transact(store, async (tx) => {
        await run((work) => work(tx));
        throw new Rollback('dry run');
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
    }
  } else await run((work) => transact(store, work));
  return summary;
}
