// The file phase: blob files in the blob store with no blob row — what a
// crash between an upload's commit and its link leaves, or a commit whose
// link was refused — are deleted once older than the grace, through the same
// locked step as rows (collect-blob.ts holds a placeholder row meanwhile, so
// a push linking that digest waits and then sees whether the bytes stayed).
import type { BlobInfo } from '../blobs/blob-store.js';
import { parseDigest } from '../content/digest.js';
import { collectBlob } from './collect-blob.js';
import type { GcRun } from './gc-run.js';

const BATCH = 500;

async function sweepBatch(run: GcRun, files: BlobInfo[]): Promise<void> {
  if (files.length === 0) return;
  const rows = await run.store.db
    .selectFrom('blobs')
    .select('digest')
    .where(
      'digest',
      'in',
      files.map((f) => f.digest),
    )
    .execute();
  const recorded = new Set(rows.map((r) => r.digest));
  for (const file of files) {
    if (run.stopped()) return;
    if (recorded.has(file.digest) || file.modified.getTime() >= run.cutoffs.content.getTime()) continue;
    const d = parseDigest(file.digest);
    if (d === undefined) continue;
    if (run.dryRun) {
      run.report.blobsDeleted++;
      run.report.bytesFreed += file.size;
      continue;
    }
    const outcome = await collectBlob(run.store, run.blobs, d, run.cutoffs.content);
    if (outcome.deleted) {
      run.report.blobsDeleted++;
      run.report.bytesFreed += outcome.bytes;
    }
  }
}

export async function sweepBlobFiles(run: GcRun): Promise<void> {
  let done = 0;
  let batch: BlobInfo[] = [];
  run.progress('files', done);
  for await (const file of run.blobs.list()) {
    if (run.stopped()) return;
    batch.push(file);
    if (batch.length === BATCH) {
      await sweepBatch(run, batch);
      done += batch.length;
      batch = [];
      run.progress('files', done);
    }
  }
  await sweepBatch(run, batch);
  run.progress('files', done + batch.length);
}
