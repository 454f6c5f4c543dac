// Which repo an upload session pushes into. The bytes live in the blob store
// under the session's id; this row is what lets the listener refuse a chunk
// or commit aimed at another repo's upload, and it goes with the repo.
import { nowIso } from '../../core/clock.js';
import type { Executor, Tx } from '../../store/transact.js';

export interface UploadSession {
  id: string;
  repoUid: string;
  createTime: string;
}

// Blob store ids are generated; anything else is refused before a query.
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,128}$/;

function checkId(id: string): void {
  if (!UPLOAD_ID.test(id)) throw new TypeError('upload ids are 1 to 128 letters, digits, "_" or "-"');
}

/** Records that upload `id` (made by the blob store) pushes into the repo. */
export async function recordUpload(tx: Tx, id: string, repoUid: string, now = nowIso()): Promise<void> {
  checkId(id);
  await tx.insertInto('uploads').values({ id, repo_uid: repoUid, create_time: now }).execute();
}

/** The session, or undefined (unknown, finished, or its repo was deleted). */
export async function findUpload(ex: Executor, id: string): Promise<UploadSession | undefined> {
  if (!UPLOAD_ID.test(id)) return undefined;
  const row = await ex.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, repoUid: row.repo_uid, createTime: row.create_time };
}

/** Ends the session (committed or cancelled); false when there was none. */
export async function forgetUpload(tx: Tx, id: string): Promise<boolean> {
  if (!UPLOAD_ID.test(id)) return false;
  const gone = await tx.deleteFrom('uploads').where('id', '=', id).executeTakeFirst();
  return gone.numDeletedRows > 0n;
}

/** Up to `limit` sessions started before `before`, oldest first (for gc to cancel). */
export async function staleUploads(ex: Executor, before: Date, limit = 1000): Promise<UploadSession[]> {
  const rows = await ex
    .selectFrom('uploads')
    .selectAll()
    .where('create_time', '<', before.toISOString())
    .orderBy('create_time')
    .limit(Math.max(0, Math.min(Math.trunc(limit), 10_000)))
    .execute();
  return rows.map((r) => ({ id: r.id, repoUid: r.repo_uid, createTime: r.create_time }));
}
