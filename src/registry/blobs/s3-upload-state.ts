// The one writer of s3_uploads (migration 0032): what the S3 driver knows of
// an upload in progress, shared by every instance through the database.
// Appends on one instance are serialized by its KeyedLock; across instances
// an append first takes the row's lease (a compare-and-set), so two
// instances never write the same part numbers, and it records its result
// only while it still holds that lease. The holder renews the lease while it
// works, so the lease of an instance that died runs out within a minute.
import { randomBytes } from 'node:crypto';
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import './s3-upload-tables.js';

export interface S3Part {
  etag: string;
  size: number;
}

export interface S3UploadState {
  id: string;
  started: Date;
  /** Acknowledged bytes: the parts', then the tail's. */
  size: number;
  multipartId: string | undefined;
  parts: S3Part[];
  tailSize: number;
}

export async function insertUploadState(store: Store, location: string, id: string, started: Date): Promise<void> {
  await transact(store, (tx) =>
    tx.insertInto('s3_uploads').values({ id, location, started: started.toISOString(), size: 0, multipart_id: null, parts: '[]', tail_size: 0 }).execute(),
  );
}

export async function readUploadState(store: Store, id: string): Promise<S3UploadState | undefined> {
  const row = await store.db.selectFrom('s3_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    id,
    started: new Date(row.started),
    size: Number(row.size),
    multipartId: row.multipart_id ?? undefined,
    parts: JSON.parse(row.parts) as S3Part[],
    tailSize: Number(row.tail_size),
  };
}

/** Every upload id recorded in `location`, in pages (for gc). */
export async function* uploadStateIds(store: Store, location: string): AsyncIterable<string> {
  for (let after = ''; ; ) {
    const page = await store.db
      .selectFrom('s3_uploads')
      .select('id')
      .where('location', '=', location)
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    for (const row of page) yield row.id;
    if (page.length < 500) return;
    after = page[page.length - 1].id;
  }
}

/**
 * Takes the upload's lease for `ms` if no one holds it (or theirs ran out);
 * resolves to the lease token, or undefined when another append holds it or
 * the upload is gone.
 */
export async function takeLease(store: Store, id: string, ms: number): Promise<string | undefined> {
  const token = randomBytes(12).toString('hex');
  const now = new Date();
  const until = new Date(now.getTime() + ms).toISOString();
  const taken = await transact(store, (tx) =>
    tx
      .updateTable('s3_uploads')
      .set({ lease: token, lease_until: until })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lease', 'is', null), eb('lease_until', '<', now.toISOString())]))
      .executeTakeFirst(),
  );
  return taken.numUpdatedRows > 0n ? token : undefined;
}

/** Records a new state under the lease (released with it); false when the lease was lost (the state stays as it was). */
export async function recordUnderLease(
  store: Store,
  id: string,
  token: string,
  state: Pick<S3UploadState, 'size' | 'multipartId' | 'parts' | 'tailSize'>,
): Promise<boolean> {
  const done = await transact(store, (tx) =>
    tx
      .updateTable('s3_uploads')
      .set({
        size: state.size,
        multipart_id: state.multipartId ?? null,
        parts: JSON.stringify(state.parts),
        tail_size: state.tailSize,
        lease: null,
        lease_until: null,
      })
      .where('id', '=', id)
      .where('lease', '=', token)
      .executeTakeFirst(),
  );
  return done.numUpdatedRows > 0n;
}

/** Extends a lease still held for another `ms`; false when it was lost (taken over, or the upload is gone). */
export async function renewLease(store: Store, id: string, token: string, ms: number): Promise<boolean> {
  const until = new Date(Date.now() + ms).toISOString();
  const done = await transact(store, (tx) =>
    tx.updateTable('s3_uploads').set({ lease_until: until }).where('id', '=', id).where('lease', '=', token).executeTakeFirst(),
  );
  return done.numUpdatedRows > 0n;
}

export async function releaseLease(store: Store, id: string, token: string): Promise<void> {
  await transact(store, (tx) => tx.updateTable('s3_uploads').set({ lease: null, lease_until: null }).where('id', '=', id).where('lease', '=', token).execute());
}

/** Forgets the upload; false when there was no row. */
export async function deleteUploadState(store: Store, id: string): Promise<boolean> {
  const gone = await transact(store, (tx) => tx.deleteFrom('s3_uploads').where('id', '=', id).executeTakeFirst());
  return gone.numDeletedRows > 0n;
}
