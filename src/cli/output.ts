// The three output formats of resource commands: an aligned table for people,
// the API's JSON for programs, and bare uids for shell pipelines.
import { Option, type Command } from 'commander';

export type OutputFormat = 'table' | 'json' | 'id';

export interface Column<T> {
  header: string;
  value: (item: T) => string | undefined;
}

export function addOutputOption(cmd: Command): Command {
  return cmd.addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'id']).default('table'));
}

function cell(v: string | undefined): string {
  return (v ?? '').replace(/\s+/g, ' ').trim();
}

export function formatTable<T>(items: readonly T[], columns: readonly Column<T>[]): string {
  const rows = [columns.map((c) => c.header), ...items.map((it) => columns.map((c) => cell(c.value(it))))];
  const widths = columns.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return `${rows
    .map((r) =>
      r
        .map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** Prints a list of resources in the chosen format. */
export function printList<T extends { uid?: string }>(items: readonly T[], format: OutputFormat, columns: readonly Column<T>[]): void {
  if (format === 'json') process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
  else if (format === 'id') process.stdout.write(items.map((it) => `${it.uid ?? ''}\n`).join(''));
  else process.stdout.write(formatTable(items, columns));
}

/** Prints one resource (the result of get, create or update). */
export function printOne<T extends { uid?: string }>(item: T, format: OutputFormat, columns: readonly Column<T>[]): void {
  if (format === 'json') process.stdout.write(`${JSON.stringify(item, null, 2)}\n`);
  else printList([item], format, columns);
}

/** Reports a deletion: the API's (empty) JSON, the uid, or a sentence. */
export function printDeleted(uid: string, body: unknown, format: OutputFormat): void {
  if (format === 'json') process.stdout.write(`${JSON.stringify(body ?? {}, null, 2)}\n`);
  else if (format === 'id') process.stdout.write(`${uid}\n`);
  else process.stdout.write(`Deleted ${uid}\n`);
}

/** Shared columns: UID NAME DESCRIPTION CREATED. */
export const BASIC_COLUMNS: readonly Column<{ uid?: string; name?: string; description?: string; createTime?: string }>[] = [
  { header: 'UID', value: (r) => r.uid },
  { header: 'NAME', value: (r) => r.name },
  { header: 'DESCRIPTION', value: (r) => r.description },
  { header: 'CREATED', value: (r) => r.createTime },
];
