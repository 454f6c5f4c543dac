// The one naming rule between a `berth serve` flag and its other two sources:
// the file key is the flag without its dashes (`--blob-store` → `blob-store`),
// the environment variable is BERTH_ and the key in upper case with `_` for
// `-` (`BERTH_BLOB_STORE`).
import type { Option } from 'commander';

/** Flags that only the command line sets: the file cannot name itself, and printing is an action. */
export const COMMAND_LINE_ONLY: ReadonlySet<string> = new Set(['config', 'print-config']);

/** Older variable names still read, after the rule's own name: BERTH_DATABASE_URL predates the rule. */
export const LEGACY_ENV: Readonly<Record<string, readonly string[]>> = { database: ['BERTH_DATABASE_URL'] };

/** The key of a long flag in a configuration file: `blob-store`. */
export function fileKey(option: Option): string {
  return (option.long ?? '').replace(/^--/, '');
}

/** The environment variable of a file key: `BERTH_BLOB_STORE`. */
export function envName(key: string): string {
  return `BERTH_${key.toUpperCase().replace(/-/g, '_')}`;
}

/** The variables read for a key, first wins. */
export function envNames(key: string): readonly string[] {
  return [envName(key), ...(LEGACY_ENV[key] ?? [])];
}

/** The options a file and the environment may set. */
export function settableOptions(options: readonly Option[]): Option[] {
  return options.filter((o) => o.long !== undefined && !COMMAND_LINE_ONLY.has(fileKey(o)));
}
