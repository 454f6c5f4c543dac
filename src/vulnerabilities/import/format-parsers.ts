// Each import format's parser behind one signature (bytes of one file → its
// advisories), by format name, so the parse pool's worker threads and the
// importer's own thread call the same code with only plain data crossing.
import { parseOpenVexBytes } from './openvex-advisories.js';
import { parseOsvBytes } from './osv-advisories.js';
import { parseSecdbBytes } from './secdb-advisories.js';
import type { NormalizedAdvisory } from './normalized-advisory.js';
import { parseYamlAdvisories } from './yaml-advisories.js';
import type { FormatName } from './format-names.js';

/** What a parser is told besides the bytes: plain data (it crosses to a worker thread). */
export interface ParseOptions {
  /** Architectures for records that name none. */
  architectures: readonly string[];
  /** package_namespace of the rows ('' when unknown). */
  namespace: string;
  /** Author of the rows and events: "import:<format>". */
  author: string;
}

export type Parser = (file: string, bytes: Uint8Array, opts: ParseOptions) => NormalizedAdvisory[];

export const PARSERS: Record<FormatName, Parser> = {
  yaml: (file, bytes, o) => parseYamlAdvisories(file, bytes, { architectures: o.architectures, namespace: o.namespace, author: o.author }),
  osv: (file, bytes, o) => parseOsvBytes(file, bytes, { arch: o.architectures, namespace: o.namespace }).advisories,
  secdb: (file, bytes, o) => parseSecdbBytes(file, bytes, { arch: o.architectures, namespace: o.namespace }).advisories,
  openvex: (file, bytes, o) => parseOpenVexBytes(file, bytes, { arch: o.architectures, namespace: o.namespace }).advisories,
};
