// The core metadata inside a local distribution: *.dist-info/METADATA from a
// wheel (yauzl reads only the central directory and that entry), PKG-INFO at
// the top of an sdist (tar-stream over gunzip, stopping at the entry; zip
// sdists through yauzl). Bounded: the entry's inflated size, and for a tar
// the bytes and entries walked before PKG-INFO.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import { collectBounded, MAX_METADATA_BYTES } from './bounded-read.js';
import { type CoreMetadata, parseCoreMetadata } from './core-metadata.js';
import { CatalogueFileError } from './import-problem.js';

const MAX_TAR_ENTRIES = 5000;
const MAX_ZIP_ENTRIES = 200_000;
const MAX_TAR_BYTES = 256 * 1024 * 1024;

async function fromZip(path: string, wanted: (name: string) => boolean): Promise<CoreMetadata | undefined> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true });
  } catch (err) {
    throw new CatalogueFileError(path, `not a readable zip archive: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES) throw new CatalogueFileError(path, `zip archive with more than ${MAX_ZIP_ENTRIES} entries`);
    for await (const entry of zip.eachEntry()) {
      if (!wanted(entry.fileName)) continue;
      if (entry.uncompressedSize > MAX_METADATA_BYTES) throw new CatalogueFileError(path, `${entry.fileName} larger than ${MAX_METADATA_BYTES} bytes`);
      const stream = await zip.openReadStreamPromise(entry);
      const bytes = await collectBounded(stream as AsyncIterable<Buffer>, MAX_METADATA_BYTES, path, () => stream.destroy());
      return parseCoreMetadata(bytes.toString('utf8'));
    }
    return undefined;
  } catch (err) {
    if (err instanceof CatalogueFileError) throw err;
    throw new CatalogueFileError(path, `broken zip archive: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    zip.close();
  }
}

const topLevel = (name: string, file: string) => {
  const parts = name.split('/');
  return parts.length === 2 && parts[1] === file;
};

export function wheelMetadata(path: string): Promise<CoreMetadata | undefined> {
  return fromZip(path, (name) => topLevel(name, 'METADATA') && name.split('/')[0].endsWith('.dist-info'));
}

export async function sdistMetadata(path: string): Promise<CoreMetadata | undefined> {
  const lower = path.toLowerCase();
  if (lower.endsWith('.zip')) return fromZip(path, (name) => topLevel(name, 'PKG-INFO'));
  if (!lower.endsWith('.tar.gz') && !lower.endsWith('.tgz')) return undefined; // .tar.bz2: no metadata read
  const extract = tar.extract();
  const file = createReadStream(path);
  const gunzip = createGunzip();
  let inflated = 0;
  gunzip.on('data', (c: Buffer) => {
    inflated += c.byteLength;
    if (inflated > MAX_TAR_BYTES) gunzip.destroy(new CatalogueFileError(path, `PKG-INFO not within the first ${MAX_TAR_BYTES} bytes`));
  });
  const fail = (err: unknown) => extract.destroy(err instanceof Error ? err : new Error(String(err)));
  file.on('error', fail);
  gunzip.on('error', fail);
  file.pipe(gunzip).pipe(extract);
  let entries = 0;
  try {
    for await (const entry of extract) {
      if (++entries > MAX_TAR_ENTRIES) throw new CatalogueFileError(path, `PKG-INFO not within the first ${MAX_TAR_ENTRIES} entries`);
      if (entry.header.type === 'file' && topLevel(entry.header.name, 'PKG-INFO')) {
        const bytes = await collectBounded(entry as AsyncIterable<Buffer>, MAX_METADATA_BYTES, path, () => entry.resume());
        return parseCoreMetadata(bytes.toString('utf8'));
      }
      entry.resume();
    }
    return undefined;
  } catch (err) {
    if (err instanceof CatalogueFileError) throw err;
    throw new CatalogueFileError(path, `not a readable .tar.gz: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    file.destroy();
    gunzip.destroy();
    extract.destroy();
  }
}
