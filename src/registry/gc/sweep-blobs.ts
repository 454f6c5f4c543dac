// The blob phase: every blob row no repo links any more is deleted with its
// bytes (collect-blob.ts re-checks both under the row's lock), unless its
// bytes were committed within the grace. A dry run counts the rows with no
// link, plus those whose every link the repo phase would have removed.
import { sql } from 'kysely';
import { parseDigest } from '../content/digest.js';
import { collectBlob } from './collect-blob.js';
import type { GcRun } from './gc-run.js';

const PAGE = 500;

/** Dry run: would the blob go (bytes older than the grace or gone)? Counts it if so. */
async function countIfOld(run: GcRun, digest: string): Promise<void> {
  const d = parseDigest(digest);
  if (d === undefined) return;
  const info = await run.blobs.stat(d);
  if (info !== undefined && info.modified.getTime() >= run.cutoffs.content.getTime()) return;
  run.report.blobsDeleted++;
  run.report.bytesFreed += info?.size ?? 0;
}

async function collect(run: GcRun, digest: string): Promise<void> {
  const d = parseDigest(digest);
  if (d === undefined) return; // rows hold only checked digests
  const outcome = await collectBlob(run.store, run.blobs, d, run.cutoffs.content);
  if (outcome.deleted) {
    run.report.blobsDeleted++;
    run.report.bytesFreed += outcome.bytes;
  }
}

/** Dry run: the blobs whose links would all have been removed by the repo phase. */
async function* unlinkedByPlan(run: GcRun): AsyncIterable<string> {
  const planned = [...run.plannedUnlinks.keys()].sort();
  for (let i = 0; i < planned.length; i += PAGE) {
    const part = planned.slice(i, i + PAGE);
    const counts = await run.store.db
      .selectFrom('repo_blobs')
      .select(['digest', (eb) => eb.fn.countAll().as('n')])
      .where('digest', 'in', part)
      .groupBy('digest')
      .execute();
    for (const c of counts) if (Number(c.n) === run.plannedUnlinks.get(c.digest)) yield c.digest;
  }
}

export async function sweepBlobRows(run: GcRun): Promise<void> {
  const db = run.store.db;
  let done = 0;
  run.progress('blobs', done);
  for (let after = ''; ; ) {
    const page = await db
      .selectFrom('blobs')
      .select('digest')
      .where('digest', '>', after)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('repo_blobs').select(sql.lit(1).as('one')).whereRef('repo_blobs.digest', '=', 'blobs.digest'))),
      )
      .orderBy('digest')
      .limit(PAGE)
      .execute();
    for (const { digest } of page) {
      if (run.stopped()) return;
      await (run.dryRun ? countIfOld(run, digest) : collect(run, digest));
      run.progress('blobs', ++done);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].digest;
  }
  if (!run.dryRun) return;
  for await (const digest of unlinkedByPlan(run)) {
    if (run.stopped()) return;
    await countIfOld(run, digest);
    run.progress('blobs', ++done);
  }
}
