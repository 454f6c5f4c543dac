// The size an upload has durably reached, kept beside its data file. The data
// file can hold more: the bytes of an append still running (written, not yet
// fsynced nor acknowledged) or of one a kill -9 cut short. Upload status
// reports the record; the next append or commit cuts the data file back to it.
// The record is 16 decimal digits rewritten in place and fsynced: one write
// inside one disk sector, so a crash leaves the old value or the new one.
import { open, readFile } from 'node:fs/promises';

const WIDTH = 16;

/** The recorded size; undefined when there is no record (an upload begun before records were kept: its data file's size counts). */
export async function readSizeRecord(path: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'latin1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  // Unreadable (never written whole): nothing counts as acknowledged, the client starts the upload again.
  return /^\d{16}$/.test(text) ? Number(text) : 0;
}

/** Records `size` durably; `create` makes the record (and refuses to replace one). */
export async function writeSizeRecord(path: string, size: number, create = false): Promise<void> {
  const file = await open(path, create ? 'wx' : 'r+', 0o600);
  try {
    await file.write(Buffer.from(String(size).padStart(WIDTH, '0'), 'latin1'), 0, WIDTH, 0);
    await file.datasync();
  } finally {
    await file.close();
  }
}
