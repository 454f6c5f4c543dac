// The import formats `berth advisories import --format` knows: a name → a
// reader turning a path (a file or a directory; for OSV also an all.zip) into
// SourceFile values, and how --format auto recognises a path. Each format's
// parser lives in its own module; this table is the one place they meet.
import { open, stat } from 'node:fs/promises';
import type { FormatName } from './format-names.js';
import { readJsonSources } from './json-sources.js';
import { ImportError } from './normalized-advisory.js';
import { type FileBytes, type FormatOptions, inOrderAhead, readFileBytes, type SourceFile, sourceFromBytes, walkFiles } from './source-file.js';

/** Reads everything under `path` in one format; throws ImportError on a refused input. */
export type FormatReader = (path: string, opts: FormatOptions) => AsyncIterable<SourceFile>;

export interface Format {
  /** Undefined while the format is not built in (the CLI says so). */
  read?: FormatReader;
  /** --format auto: does a file with this name and these first bytes hold this format? */
  looksLike(name: string, head: string): boolean;
}

const isYamlName = (name: string) => /\.ya?ml$/i.test(name);

/** Files being read at once (the disk and the CPU overlap; bounded, so a large directory does not open all its files). */
const READ_AHEAD = 8;

/** Bytes of the files parsed ahead at once (their parsed rows take several times as much). */
const PARSE_AHEAD_BYTES = 32 * 1024 * 1024;

/** Each file of `files` checked and parsed as `format`, up to opts.parseAhead files (and PARSE_AHEAD_BYTES) ahead. */
function parsed(files: AsyncIterable<FileBytes>, opts: FormatOptions, format: FormatName): AsyncIterable<SourceFile> {
  const ahead = { depth: opts.parseAhead, weigh: (f: FileBytes) => f.bytes.byteLength, budget: PARSE_AHEAD_BYTES };
  return inOrderAhead(files, ahead, (f) => sourceFromBytes(f, opts, format));
}

/** A directory of YAML documents (or one), read a few files at a time. */
function readYaml(path: string, opts: FormatOptions): AsyncIterable<SourceFile> {
  return parsed(inOrderAhead(walkFiles(path, isYamlName), { depth: READ_AHEAD }, readFileBytes), opts, 'yaml');
}

/** A JSON format's reader: a file, a directory of *.json or a zip of them (json-sources.ts), each parsed as `format`. */
function jsonReader(format: FormatName): FormatReader {
  return (path, opts) => parsed(readJsonSources(path), opts, format);
}

export const FORMATS: Record<FormatName, Format> = {
  yaml: { read: readYaml, looksLike: (name) => isYamlName(name) },
  osv: {
    read: jsonReader('osv'),
    looksLike: (name, head) =>
      /\.zip$/i.test(name) || (/\.json$/i.test(name) && /"(schema_version|affected|modified)"\s*:/.test(head) && !/openvex/.test(head)),
  },
  secdb: { read: jsonReader('secdb'), looksLike: (name, head) => /\.json$/i.test(name) && /"(apkurl|secfixes|reponame)"\s*:/.test(head) },
  openvex: { read: jsonReader('openvex'), looksLike: (name, head) => /\.json$/i.test(name) && /openvex\.dev\/ns/.test(head) },
};

const DETECT_ORDER: readonly FormatName[] = ['yaml', 'openvex', 'secdb', 'osv'];
const HEAD_BYTES = 64 * 1024;
const SCAN_LIMIT = 1000;

async function head(file: string): Promise<string> {
  const h = await open(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await h.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await h.close();
  }
}

/** --format auto: the format of a file, or of the first recognisable file in a directory. */
export async function detectFormat(path: string): Promise<FormatName> {
  const info = await stat(path);
  let scanned = 0;
  for await (const file of info.isFile() ? single(path) : walkFiles(path, (n) => /\.(ya?ml|json|zip)$/i.test(n))) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const text = /\.zip$/i.test(name) ? '' : await head(file);
    const found = DETECT_ORDER.find((f) => FORMATS[f].looksLike(name, text));
    if (found) return found;
    if (++scanned >= SCAN_LIMIT) break;
  }
  throw new ImportError(path, 0, 'cannot tell the format: pass --format yaml|osv|secdb|openvex');
}

async function* single(path: string): AsyncIterable<string> {
  yield path;
}
