// Where the JSON advisory formats come from: one file, a directory of *.json
// files (walked in name order, so an import is the same every time), or a
// zip archive such as OSV's per-ecosystem all.zip (its *.json entries, read
// one at a time with yauzl). Every read is bounded: a file or an entry's
// uncompressed size ≤ 64 MiB (checked while inflating, not trusted from the
// header), ≤ 200,000 entries in an archive or files under a directory.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { MAX_INPUT_BYTES } from './json-input.js';
import { ImportError } from './normalized-advisory.js';

export const MAX_ENTRIES = 200_000;

export interface JsonSource {
  /** The path as given; a zip entry: "<zip path>!<entry name>". */
  file: string;
  bytes: Uint8Array;
}

export async function* readJsonSources(path: string): AsyncGenerator<JsonSource> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (err) {
    throw new ImportError(path, 0, `cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (info.isDirectory()) {
    yield* readDirectory(path);
  } else if (path.toLowerCase().endsWith('.zip')) {
    yield* readZip(path);
  } else {
    yield { file: path, bytes: await readBounded(path, info.size) };
  }
}

async function readBounded(path: string, size: number): Promise<Uint8Array> {
  if (size > MAX_INPUT_BYTES) throw new ImportError(path, 0, `file larger than ${MAX_INPUT_BYTES} bytes`);
  const bytes = await readFile(path);
  if (bytes.byteLength > MAX_INPUT_BYTES) throw new ImportError(path, 0, `file larger than ${MAX_INPUT_BYTES} bytes`);
  return bytes;
}

async function* readDirectory(dir: string): AsyncGenerator<JsonSource> {
  const files: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.shift() as string;
    const entries = await readdir(current, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(current, e.name);
      if (e.isDirectory()) pending.push(p);
      else if (e.isFile() && e.name.toLowerCase().endsWith('.json')) files.push(p);
      if (files.length + pending.length > MAX_ENTRIES) throw new ImportError(dir, 0, `more than ${MAX_ENTRIES} files`);
    }
  }
  files.sort();
  for (const f of files) yield { file: f, bytes: await readBounded(f, (await stat(f)).size) };
}

async function* readZip(path: string): AsyncGenerator<JsonSource> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true });
  } catch (err) {
    throw new ImportError(path, 0, `not a readable zip archive: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    if (zip.entryCount > MAX_ENTRIES) throw new ImportError(path, 0, `zip archive with more than ${MAX_ENTRIES} entries`);
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/') || !name.toLowerCase().endsWith('.json')) continue;
      const file = `${path}!${name}`;
      if (name.includes('\u0000')) throw new ImportError(path, 0, 'NUL character in a zip entry name');
      if (entry.uncompressedSize > MAX_INPUT_BYTES) throw new ImportError(file, 0, `zip entry larger than ${MAX_INPUT_BYTES} bytes uncompressed`);
      yield { file, bytes: await readEntry(zip, entry, file) };
    }
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw new ImportError(path, 0, `broken zip archive: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    zip.close();
  }
}

// The header's size is the writer's claim: count what inflates, and stop at the bound.
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, file: string): Promise<Uint8Array> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > MAX_INPUT_BYTES) {
      stream.destroy();
      throw new ImportError(file, 0, `zip entry larger than ${MAX_INPUT_BYTES} bytes uncompressed`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
