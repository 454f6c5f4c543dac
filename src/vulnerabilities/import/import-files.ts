// One import run of one format: resolves the import group, streams the
// format's files through the writer a transaction per batch of files, skips
// files whose hash is stored, records the new hashes, and at the end prunes
// (with --prune) and writes the one advisories.imported event. --dry-run runs
// the same work in one transaction that is rolled back, so its summary is
// what a real run would report.
import { nowIso } from '../../core/clock.js';
import { emitEvent } from '../../events/outbox.js';
import type { Store } from '../../store/store.js';
import { transact, type Tx } from '../../store/transact.js';
import { type BatchResult, type FileCounts, pruneAdvisories, writeBatch } from './advisory-writer.js';
import { resolveImportGroup } from './import-group.js';
import { ImportError, type NormalizedAdvisory } from './normalized-advisory.js';
import { ParsePool } from './parse-pool.js';
import type { FormatOptions, SourceFile } from './source-file.js';

export const IMPORTED_EVENT = 'api.vulnerabilities.advisories.imported.v1';

export interface ImportOptions {
  /** The format name: advisories.source, the file-key prefix, the author "import:<source>". */
  source: string;
  /** Reads the inputs; called once the stored hashes are known. */
  read: (opts: FormatOptions) => AsyncIterable<SourceFile>;
  architectures: readonly string[];
  namespace: string;
  /** --group: a group uid or name; default the first-start organization. */
  group?: string;
  dryRun: boolean;
  prune: boolean;
  /** Re-read files whose hash is stored. */
  force?: boolean;
  /** Files per transaction (default BATCH_FILES) and advisory rows per transaction (default BATCH_ADVISORIES), whichever comes first. */
  batchFiles?: number;
  batchAdvisories?: number;
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportProgress {
  files: number;
  skipped: number;
  advisories: number;
  events: number;
  added: number;
  changed: number;
}

export interface ImportSummary {
  source: string;
  /** The group written into (uid and name), also on a dry run. */
  group: string;
  groupName: string;
  dryRun: boolean;
  files: number;
  skippedFiles: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  eventsAdded: number;
  eventsRemoved: number;
  /** Advisory rows and events read from the changed files. */
  rowsRead: number;
  eventsRead: number;
  perFile: FileCounts[];
  /** The refused input that stopped the run (files before it were imported; nothing was pruned). */
  error?: ImportError;
}

class Rollback extends Error {}

// Files and advisory rows per transaction, whichever fills first. Each commit writes every page the
// batch touched, and the random-keyed indexes (uids, advisory ids) spread a batch over most of their
// pages, so fewer, larger batches write far less (docs/performance.md). A batch holds the database's write lock about a second: a server's writes wait.
const BATCH_FILES = 1000;
const BATCH_ADVISORIES = 20_000;

export async function importFiles(store: Store, opts: ImportOptions): Promise<ImportSummary> {
  const author = `import:${opts.source}`;
  const prefix = `${opts.source}:`;
  const stored = new Map<string, string>();
  for (const r of await store.db.selectFrom('advisory_import_files').select(['file_key', 'content_hash']).execute()) {
    if (r.file_key.startsWith(prefix)) stored.set(r.file_key.slice(prefix.length), r.content_hash);
  }
  // Started at the first file that needs parsing; closed when the run ends, however it ends.
  const parser = new ParsePool();
  const summary: ImportSummary = {
    source: opts.source,
    group: '',
    groupName: '',
    dryRun: opts.dryRun,
    files: 0,
    skippedFiles: 0,
    added: 0,
    changed: 0,
    removed: 0,
    unchanged: 0,
    eventsAdded: 0,
    eventsRemoved: 0,
    rowsRead: 0,
    eventsRead: 0,
    perFile: [],
  };

  const run = async (inTx: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>): Promise<void> => {
    const group = await inTx(async (tx) => {
      // This process only imports: a large page cache keeps the random-order index inserts off the disk.
      await store.caps.bulkWriteCache(tx, 256);
      return resolveImportGroup(tx, opts.group);
    });
    summary.group = group.uid;
    summary.groupName = group.name;
    const now = nowIso();
    const maxFiles = opts.batchFiles ?? BATCH_FILES;
    const maxRows = opts.batchAdvisories ?? BATCH_ADVISORIES;
    const written = new Set<string>();
    const seenFiles = new Set<string>();
    const keptFiles = new Set<string>();
    const ctx = { group: group.uid, source: opts.source, author, pruneEvents: opts.prune, now, written };
    const parseOptions = { architectures: opts.architectures, namespace: opts.namespace, author };
    const fingerprint = JSON.stringify({ a: [...opts.architectures], n: opts.namespace, g: group.uid });
    const formatOptions: FormatOptions = {
      architectures: opts.architectures,
      namespace: opts.namespace,
      fingerprint,
      author,
      // --prune reads every file: an unchanged file may still hold advisories an earlier run without --prune
      // kept after they left it, and only its rows say which of the stored ones are still in it.
      isUnchanged: (file, hash) => !opts.force && !opts.prune && stored.get(file) === hash,
      parse: (format, file, bytes) => parser.parse(format, file, bytes, parseOptions),
      // With threads parsing, half a batch is parsed while the previous batch is written (100 or
      // 250 files ahead measured slower; a whole batch no faster).
      parseAhead: parser.size > 0 ? Math.max(8, Math.ceil(maxFiles / 2)) : 8,
    };
    let batch: SourceFile[] = [];
    let batchRows = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const files = batch;
      batch = [];
      batchRows = 0;
      const result: BatchResult = await inTx(async (tx) => {
        const changed = files.filter((f) => !f.unchanged) as { file: string; advisories: NormalizedAdvisory[] }[];
        const r = changed.length > 0 ? await writeBatch(tx, ctx, changed) : { files: [], written: [], eventsAdded: 0, eventsRemoved: 0, packages: [] };
        const hashes = files.filter((f) => !f.unchanged).map((f) => ({ file_key: prefix + f.file, content_hash: f.contentHash, import_time: now }));
        if (hashes.length > 0) {
          await tx
            .insertInto('advisory_import_files')
            .values(hashes)
            .onConflict((oc) =>
              oc.column('file_key').doUpdateSet((eb) => ({ content_hash: eb.ref('excluded.content_hash'), import_time: eb.ref('excluded.import_time') })),
            )
            .execute();
        }
        return r;
      });
      for (const uid of result.written) written.add(uid);
      for (const f of result.files) {
        summary.added += f.added;
        summary.changed += f.changed;
        summary.unchanged += f.unchanged;
        summary.perFile.push(f);
      }
      summary.eventsAdded += result.eventsAdded;
      summary.eventsRemoved += result.eventsRemoved;
    };
    const progress = () =>
      opts.onProgress?.({
        files: summary.files,
        skipped: summary.skippedFiles,
        advisories: summary.rowsRead,
        events: summary.eventsRead,
        added: summary.added,
        changed: summary.changed,
      });
    try {
      for await (const f of opts.read(formatOptions)) {
        if (seenFiles.has(f.file)) continue; // the same path given twice
        seenFiles.add(f.file);
        summary.files++;
        if (f.unchanged) {
          summary.skippedFiles++;
          keptFiles.add(f.file);
          summary.perFile.push({ file: f.file, added: 0, changed: 0, unchanged: 0, skipped: true });
          progress();
          continue;
        }
        summary.rowsRead += f.advisories.length;
        for (const a of f.advisories) summary.eventsRead += a.events.length;
        batch.push(f);
        batchRows += f.advisories.length;
        if (batch.length >= maxFiles || batchRows >= maxRows) {
          await flush();
          progress();
        }
      }
    } catch (err) {
      if (!(err instanceof ImportError)) throw err;
      summary.error = err;
    }
    // The files read before a refused one are good: keep them, but prune nothing (the input was not whole).
    await flush();
    progress();
    await inTx(async (tx) => {
      if (opts.prune && !summary.error) {
        summary.removed = await pruneAdvisories(tx, group.uid, opts.source, written, keptFiles);
        // Forget the hashes of files no longer given, so one that comes back is read again.
        const stale = [...stored.keys()].filter((f) => !seenFiles.has(f)).map((f) => prefix + f);
        for (let i = 0; i < stale.length; i += 500) {
          await tx
            .deleteFrom('advisory_import_files')
            .where('file_key', 'in', stale.slice(i, i + 500))
            .execute();
        }
      }
      if (!opts.dryRun && summary.added + summary.changed + summary.removed > 0) {
        await emitEvent(tx, {
          type: IMPORTED_EVENT,
          audience: 'customer',
          group: group.uid,
          subject: group.uid,
          body: { source: opts.source, added: summary.added, changed: summary.changed, removed: summary.removed },
          bodyType: 'berth.vulnerabilities.AdvisoriesImported',
          extensions: { group: group.uid },
          // Run by an operator on the host: no identity and no address.
          audit: { action: 'berth advisories import', address: '' },
        });
      }
    });
  };

  try {
    await runAll(run, store, opts.dryRun);
  } finally {
    await parser.close();
  }
  return summary;
}

async function runAll(run: (inTx: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>) => Promise<void>, store: Store, dryRun: boolean): Promise<void> {
  if (dryRun) {
    // One transaction for everything, rolled back: later batches see earlier ones, as in a real run.
    try {
      await transact(store, async (outer) => {
        await run((work) => work(outer));
        throw new Rollback('dry run');
      });
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
    }
  } else {
    await run((work) => transact(store, work));
  }
}
