// Reading import files for every format: walking a directory, the size and
// NUL bounds, and the content hash that lets an unchanged file be skipped
// without parsing it (what makes a no-op re-import cheap). A format's reader
// calls readSourceFile with its parser; the writer gets SourceFile values.
import { hash } from 'node:crypto';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportError, type NormalizedAdvisory, type ParsedFile } from './normalized-advisory.js';

/** One input file as the writer gets it: its rows, or only its hash when it is unchanged since the last import. */
export interface SourceFile extends ParsedFile {
  /** sha256 of the import options and the bytes: what advisory_import_files stores. */
  contentHash: string;
  /** True when the stored hash matched: `advisories` is empty and the stored rows stand. */
  unchanged: boolean;
}

/** What every format reader is given. */
export interface FormatOptions {
  /** Architectures for formats that name none (YAML, secdb). */
  architectures: readonly string[];
  /** package_namespace of the rows ('' when unknown). */
  namespace: string;
  /** Mixed into every content hash: options that change the rows (architectures, namespace, feed group). */
  fingerprint: string;
  /** True when `file` (the path as given) was imported before with this hash. */
  isUnchanged(file: string, contentHash: string): boolean;
  /** Author of imported rows and events: "import:<format>". */
  author: string;
}

/** Files larger than this are refused (every format). */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;
const MAX_FILES = 1_000_000;
const MAX_DEPTH = 32;

export function contentHash(fingerprint: string, bytes: Uint8Array): string {
  return hash('sha256', Buffer.concat([Buffer.from(`${fingerprint}\u0000`), bytes]), 'hex');
}

/**
 * Reads `file`, refuses oversize or NUL content, and returns it unparsed when
 * its hash is the stored one; otherwise parses it with `parse`.
 */
export async function readSourceFile(file: string, opts: FormatOptions, parse: (file: string, bytes: Uint8Array) => NormalizedAdvisory[]): Promise<SourceFile> {
  const info = await stat(file);
  if (info.size > MAX_SOURCE_BYTES) throw new ImportError(file, 0, `file is ${info.size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`);
  const bytes = await readFile(file);
  return sourceFromBytes(file, bytes, opts, parse);
}

/** As readSourceFile, for bytes already read (a zip entry: file = "<zip>!<entry>"). */
export function sourceFromBytes(
  file: string,
  bytes: Uint8Array,
  opts: FormatOptions,
  parse: (file: string, bytes: Uint8Array) => NormalizedAdvisory[],
): SourceFile {
  if (bytes.byteLength > MAX_SOURCE_BYTES) throw new ImportError(file, 0, `file is ${bytes.byteLength} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`);
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new ImportError(file, lineAt(bytes, nul), 'NUL byte in the file');
  const h = contentHash(opts.fingerprint, bytes);
  if (opts.isUnchanged(file, h)) return { file, advisories: [], contentHash: h, unchanged: true };
  return { file, advisories: parse(file, bytes), contentHash: h, unchanged: false };
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 10) line++;
  return line;
}

/**
 * `path` itself when it is a file; else the files below it whose name `match`
 * accepts, in sorted order (stable summaries), not following symbolic links
 * to directories, bounded in depth and count.
 */
export async function* walkFiles(path: string, match: (name: string) => boolean): AsyncIterable<string> {
  const info = await stat(path);
  if (info.isFile()) {
    yield path;
    return;
  }
  if (!info.isDirectory()) throw new ImportError(path, 0, 'not a file or directory');
  let count = 0;
  async function* walk(dir: string, depth: number): AsyncIterable<string> {
    if (depth > MAX_DEPTH) throw new ImportError(dir, 0, `directories nested deeper than ${MAX_DEPTH}`);
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const p = join(dir, name);
      const l = await lstat(p);
      if (l.isDirectory()) yield* walk(p, depth + 1);
      else if ((l.isFile() || (l.isSymbolicLink() && (await stat(p)).isFile())) && match(name)) {
        if (++count > MAX_FILES) throw new ImportError(path, 0, `more than ${MAX_FILES} files`);
        yield p;
      }
    }
  }
  yield* walk(path, 0);
}
