// The import formats `berth advisories import --format` knows: a name → a
// reader turning a path (a file or a directory; for OSV also an all.zip) into
// SourceFile values, and how --format auto recognises a path. Each format's
// parser lives in its own module; this table is the one place they meet.
import { open, stat } from 'node:fs/promises';
import { ImportError } from './normalized-advisory.js';
import { type FormatOptions, readSourceFile, type SourceFile, walkFiles } from './source-file.js';
import { parseYamlAdvisories } from './yaml-advisories.js';

export const FORMAT_NAMES = ['yaml', 'osv', 'secdb', 'openvex'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** Reads everything under `path` in one format; throws ImportError on a refused input. */
export type FormatReader = (path: string, opts: FormatOptions) => AsyncIterable<SourceFile>;

export interface Format {
  /** Undefined while the format is not built in (the CLI says so). */
  read?: FormatReader;
  /** --format auto: does a file with this name and these first bytes hold this format? */
  looksLike(name: string, head: string): boolean;
}

const isYamlName = (name: string) => /\.ya?ml$/i.test(name);

async function* readYaml(path: string, opts: FormatOptions): AsyncIterable<SourceFile> {
  for await (const file of walkFiles(path, isYamlName)) {
    yield await readSourceFile(file, opts, (f, bytes) =>
      parseYamlAdvisories(f, bytes, { architectures: opts.architectures, namespace: opts.namespace, author: opts.author }),
    );
  }
}

export const FORMATS: Record<FormatName, Format> = {
  yaml: { read: readYaml, looksLike: (name) => isYamlName(name) },
  // OSV, secdb and OpenVEX readers: src/vulnerabilities/import/{osv,secdb,openvex}*.ts set `read` here.
  osv: {
    looksLike: (name, head) =>
      /\.zip$/i.test(name) || (/\.json$/i.test(name) && /"(schema_version|affected|modified)"\s*:/.test(head) && !/openvex/.test(head)),
  },
  secdb: { looksLike: (name, head) => /\.json$/i.test(name) && /"(apkurl|secfixes|reponame)"\s*:/.test(head) },
  openvex: { looksLike: (name, head) => /\.json$/i.test(name) && /openvex\.dev\/ns/.test(head) },
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
