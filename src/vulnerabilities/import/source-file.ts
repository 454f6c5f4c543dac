// Reading import files for every format: walking a directory, the size and
// NUL bounds, and the content hash that lets an unchanged file be skipped
// without parsing it (what makes a no-op re-import cheap), and the in-order
// read-ahead the readers are built from (formats.ts). A format's reader
// reads bytes, hands them to sourceFromBytes, and the writer gets SourceFile
// values in input order.
import { hash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FormatName } from './format-names.js';
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
  /** Mixed into every content hash: options that change the rows (architectures, namespace, import group). */
  fingerprint: string;
  /** True when `file` (the path as given) was imported before with this hash. */
  isUnchanged(file: string, contentHash: string): boolean;
  /** Author of imported rows and events: "import:<format>". */
  author: string;
  /** Parses one file's bytes in `format` (on a parse pool thread when there is one). */
  parse(format: FormatName, file: string, bytes: Uint8Array): Promise<NormalizedAdvisory[]>;
  /** Files whose parse may be under way ahead of the one the writer takes next. */
  parseAhead: number;
}

/** One file read, not yet parsed. */
export interface FileBytes {
  file: string;
  bytes: Uint8Array;
}

/** Files (and uncompressed zip entries) larger than this are refused, in every format; YAML has a lower bound of its own (MAX_YAML_BYTES). */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;
const MAX_FILES = 1_000_000;
const MAX_DEPTH = 32;

export function contentHash(fingerprint: string, bytes: Uint8Array): string {
  return hash('sha256', Buffer.concat([Buffer.from(`${fingerprint}\u0000`), bytes]), 'hex');
}

/** Reads `file`, refusing it when it is over the size bound. */
export async function readFileBytes(file: string): Promise<FileBytes> {
  const info = await stat(file);
  if (info.size > MAX_SOURCE_BYTES) throw new ImportError(file, 0, `file is ${info.size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`);
  return { file, bytes: await readFile(file) };
}

/**
 * Refuses oversize or NUL content, and returns the file unparsed when its
 * hash is the stored one; otherwise parses it as `format`.
 */
export async function sourceFromBytes({ file, bytes }: FileBytes, opts: FormatOptions, format: FormatName): Promise<SourceFile> {
  if (bytes.byteLength > MAX_SOURCE_BYTES) throw new ImportError(file, 0, `file is ${bytes.byteLength} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`);
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new ImportError(file, lineAt(bytes, nul), 'NUL byte in the file');
  const h = contentHash(opts.fingerprint, bytes);
  if (opts.isUnchanged(file, h)) return { file, advisories: [], contentHash: h, unchanged: true };
  return { file, advisories: await opts.parse(format, file, bytes), contentHash: h, unchanged: false };
}

/** How far a stage may run ahead: started items, and optionally their summed weight (bytes). */
export interface Ahead<X> {
  depth: number;
  weigh?: (x: X) => number;
  budget?: number;
}

/**
 * The results of `start(x)` for each x of `inputs`, in order, with up to
 * `depth` started ahead of the one taken (and, with `weigh`, at most
 * `budget` of weight; one item always goes). A failure is reported in its
 * place: what came before it is yielded first (the importer keeps the files
 * before a refused one), also when `inputs` itself fails.
 */
export async function* inOrderAhead<X, T>(inputs: AsyncIterable<X>, ahead: Ahead<X>, start: (x: X) => Promise<T>): AsyncIterable<T> {
  const pending: Array<{ result: Promise<T>; weight: number }> = [];
  const budget = ahead.budget ?? Infinity;
  let weight = 0;
  let failure: { err: unknown } | undefined;
  let taking = false;
  const take = async (): Promise<T> => {
    const head = pending.shift()!;
    weight -= head.weight;
    return head.result;
  };
  try {
    for await (const x of inputs) {
      const w = ahead.weigh?.(x) ?? 0;
      while (pending.length > 0 && (pending.length >= ahead.depth || weight + w > budget)) {
        taking = true;
        const taken = await take();
        taking = false;
        yield taken;
      }
      const result = start(x);
      result.catch(() => {}); // awaited in order by take(); this only keeps an early rejection from going unhandled
      pending.push({ result, weight: w });
      weight += w;
    }
  } catch (err) {
    if (taking) throw err; // the item taken failed: everything before it went out, nothing after it may
    failure = { err }; // the input failed: what was started before it goes out first
  }
  while (pending.length > 0) yield await take();
  if (failure) throw failure.err;
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
    // Entry types come with the names (no lstat per file: a no-op re-import of a large feed is mostly this walk).
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith('.')) continue;
      const p = join(dir, name);
      if (entry.isDirectory()) yield* walk(p, depth + 1);
      else if ((entry.isFile() || (entry.isSymbolicLink() && (await stat(p)).isFile())) && match(name)) {
        if (++count > MAX_FILES) throw new ImportError(path, 0, `more than ${MAX_FILES} files`);
        yield p;
      }
    }
  }
  yield* walk(path, 0);
}
