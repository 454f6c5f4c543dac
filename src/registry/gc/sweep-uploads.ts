// The upload phase: upload sessions started before the upload grace are
// cancelled — first those the database records (their bytes in the blob
// store, then the row, the order of a client's DELETE), then what the blob
// store holds with no young session row: uploads whose row was never written
// or already forgotten, and what a crash left of a commit or a creation.
// A client still sending to a cancelled upload is answered
// BLOB_UPLOAD_UNKNOWN and starts again; one committing it at that moment
// gets an error, never a link to missing bytes (the commit renames the bytes
// before linking, and gc never links).
import { findUpload, forgetUpload } from '../content/upload-sessions.js';
import { transact } from '../../store/transact.js';
import type { GcRun } from './gc-run.js';

const PAGE = 500;

async function cancel(run: GcRun, id: string): Promise<void> {
  if (!run.dryRun) {
    await run.blobs.cancel(id);
    await transact(run.store, (tx) => forgetUpload(tx, id));
  }
  run.report.uploadsCancelled++;
}

export async function sweepUploads(run: GcRun): Promise<void> {
  const cutoff = run.cutoffs.uploads.toISOString();
  const seen = new Set<string>();
  let done = 0;
  run.progress('uploads', done);
  for (let after = { time: '', id: '' }; ; ) {
    const page = await run.store.db
      .selectFrom('uploads')
      .select(['id', 'create_time'])
      .where('create_time', '<', cutoff)
      .where((eb) => eb.or([eb('create_time', '>', after.time), eb.and([eb('create_time', '=', after.time), eb('id', '>', after.id)])]))
      .orderBy('create_time')
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of page) {
      if (run.stopped()) return;
      seen.add(row.id);
      await cancel(run, row.id);
      run.progress('uploads', ++done);
    }
    if (page.length < PAGE) break;
    const last = page[page.length - 1];
    after = { time: last.create_time, id: last.id };
  }
  for await (const upload of run.blobs.uploads()) {
    if (run.stopped()) return;
    if (seen.has(upload.id) || upload.started.getTime() >= run.cutoffs.uploads.getTime()) continue;
    const session = await findUpload(run.store.db, upload.id);
    if (session !== undefined && session.createTime >= cutoff) continue; // the database says it is young
    seen.add(upload.id);
    await cancel(run, upload.id);
    run.progress('uploads', ++done);
  }
}
