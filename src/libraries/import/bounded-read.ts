// Every file the import reads is bounded: its size is checked before it is
// read, an archive entry's while it inflates (never trusted from a header).
import { readFile, stat } from 'node:fs/promises';
import { CatalogueFileError } from './import-problem.js';

export const MAX_INDEX_BYTES = 32 * 1024 * 1024;
export const MAX_PACKUMENT_BYTES = 64 * 1024 * 1024;
export const MAX_XML_BYTES = 4 * 1024 * 1024;
export const MAX_METADATA_BYTES = 1024 * 1024;

export async function readBounded(path: string, max: number): Promise<Buffer> {
  const info = await stat(path);
  if (info.size > max) throw new CatalogueFileError(path, `larger than ${max} bytes`);
  return readFile(path);
}

/** Collects a stream's bytes up to `max`; more is an error. */
export async function collectBounded(stream: AsyncIterable<Buffer>, max: number, path: string, destroy: () => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.byteLength;
    if (total > max) {
      destroy();
      throw new CatalogueFileError(path, `metadata larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
