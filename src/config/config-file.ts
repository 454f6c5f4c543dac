// Reads a `--config` file: YAML (so JSON too), one mapping of flag names to
// values. What it may hold is checked by config-layers.ts against the flags.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A configuration file larger than this is a mistake (the whole set of flags is a few KiB). */
const MAX_FILE_BYTES = 256 * 1024;

export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES} bytes`);
    text = bytes.toString('utf8');
  } catch (err) {
    throw new Error(`--config: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let doc: unknown;
  try {
    // Duplicate keys are an error (uniqueKeys), aliases bounded: a file is settings, not a program.
    doc = parse(text, { uniqueKeys: true, maxAliasCount: 0 });
  } catch (err) {
    throw new Error(`--config: ${path} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`--config: ${path} must hold a mapping of flag names to values`);
  return doc as Record<string, unknown>;
}
