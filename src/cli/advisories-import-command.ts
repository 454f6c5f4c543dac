// berth advisories import: reads advisory files (YAML documents, OSV, secdb,
// OpenVEX) and writes them into the store under one group, the way
// `berth registry gc` opens the server's database directly. Idempotent: a
// re-import changes nothing, unchanged files are not even parsed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { FORMAT_NAMES, type FormatName } from '../vulnerabilities/import/format-names.js';
import type { ImportProgress, ImportSummary } from '../vulnerabilities/import/import-files.js';
import { ImportError } from '../vulnerabilities/import/normalized-advisory.js';
import type { FormatOptions, SourceFile } from '../vulnerabilities/import/source-file.js';
import { ProgressLine } from './progress-line.js';

const HELP = `
Formats (--format, default auto: by extension and content):
  yaml     advisory documents, schema 2.x: one <package>.advisories.yaml per
           origin package; a directory is walked for *.yaml / *.yml. Strict:
           unknown keys, bad CGA ids or aliases, an alias equal to the id,
           duplicate ids or aliases, future timestamps, empty advisories or
           events, unknown event / detection / false-positive types, YAML
           aliases and nesting deeper than 64 levels are refused with
           file:line (aliases and nesting while reading, before parsing ends).
  osv      OSV JSON records: a file, a directory of *.json, or an all.zip
  secdb    Alpine-style secdb JSON (security.json)
  openvex  OpenVEX documents
  (JSON formats: nesting deeper than 64 levels is refused, as in YAML.)

Rows: one advisory per vulnerability x (sub)package component x
architecture. Formats that name no architecture (yaml, secdb) get one row
per --arch value.

Idempotent: advisory and event uids come from their content, so importing
the same files again changes nothing (and files whose content hash is stored
are skipped without parsing). Events missing upstream are kept unless
--prune, which also deletes the advisories of this format that the input no
longer produces: give it the whole feed (--prune reads every file). --dry-run reports the same summary
and writes nothing.

Group (--group, a uid or a name): where the advisories are written, by
default the organization created on the server's first start. Who holds
advisories.list there (its owner, by default) lists them; the public feed
(/advisory/v2/documents) serves only what is imported into that
organization, so --group SUBGROUP keeps advisories off it. The summary
names the group, also with --dry-run.

A refused file stops the run with "file:line: message" and exit status 1;
files before it were imported, nothing was pruned.

Examples:
  berth advisories import ./advisories --data ./data
  berth advisories import age.advisories.yaml --arch x86_64,aarch64 --namespace wolfi
  berth advisories import ./advisories --prune --dry-run --verbose
  berth advisories import ./internal-vex --format openvex --group security-team
  berth advisories import ./advisories --database postgres://berth@db/berth`;

interface ImportFlags {
  format: FormatName | 'auto';
  arch: string;
  namespace: string;
  group?: string;
  dryRun: boolean;
  prune: boolean;
  force: boolean;
  data: string;
  database?: string;
  verbose: boolean;
  progress: boolean;
  stats: boolean;
  output: 'table' | 'json';
}

const ARCH = /^[a-z0-9_]{1,32}$/;
const NAMESPACE = /^[A-Za-z0-9._-]{0,64}$/;

function architectures(flag: string): string[] {
  const list = [...new Set(flag.split(',').map((s) => s.trim()))].filter((s) => s !== '');
  if (list.length === 0 || list.length > 16) throw new Error('--arch takes 1 to 16 comma-separated architectures');
  for (const a of list) if (!ARCH.test(a)) throw new Error(`--arch: "${a.slice(0, 40)}" is not an architecture (e.g. x86_64, aarch64)`);
  return list;
}

function summaryText(s: ImportSummary, verbose: boolean): string {
  const lines: string[] = [];
  if (verbose) {
    for (const f of s.perFile) {
      lines.push(f.skipped ? `  = ${f.file} (unchanged, skipped)` : `  +${f.added} ~${f.changed} =${f.unchanged}  ${f.file}`);
    }
  }
  const head = s.dryRun ? `${s.source} (dry run, nothing written)` : s.source;
  lines.push(
    `${head}: ${s.files} files (${s.skippedFiles} unchanged) · ${s.rowsRead} advisories, ${s.eventsRead} events read · ` +
      `events +${s.eventsAdded} -${s.eventsRemoved}`,
  );
  lines.push(`+${s.added} added ~${s.changed} changed -${s.removed} removed`);
  lines.push(`into group ${s.groupName} (${s.group})`);
  return `${lines.join('\n')}\n`;
}

function progressText(source: string, p: ImportProgress): string {
  return `import ${source}: ${p.files} files (${p.skipped} unchanged) · ${p.advisories} advisories · ${p.events} events · +${p.added} ~${p.changed}`;
}

export function advisoriesImportCommand(group: Command): void {
  group
    .command('import')
    .description('Import advisory files (a file or a directory per PATH) into the store, under a group')
    .argument('<path...>', 'files or directories to import')
    .addOption(new Option('--format <format>', 'input format').choices([...FORMAT_NAMES, 'auto']).default('auto'))
    .option('--arch <list>', 'architectures for formats that name none (comma-separated)', 'x86_64')
    .option('--namespace <name>', "the packages' namespace (e.g. wolfi, chainguard)", '')
    .option('--group <group>', 'group to import into, a uid or a name (default: the first-start organization)')
    .option('--dry-run', 'report what would change, write nothing', false)
    .option('--prune', 'also remove advisories and events of this format the input no longer has', false)
    .option('--force', 'read files even when their content hash is stored', false)
    .option('--data <dir>', "the server's data directory (SQLite file)", './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data')
    .option('--verbose', 'print the counts of every file', false)
    .option('--progress', 'show progress even when stderr is not a terminal', false)
    .option('--stats', 'add wall time, CPU time and peak RSS of this process to the summary', false)
    .addOption(new Option('-o, --output <format>', 'summary format').choices(['table', 'json']).default('table'))
    .addHelpText('after', HELP)
    .action(async (paths: string[], o: ImportFlags) => {
      // The parsers, the importer and the store are loaded here: other commands start without them.
      const [{ detectFormat, FORMATS }, { importFiles }, { openStore }] = await Promise.all([
        import('../vulnerabilities/import/formats.js'),
        import('../vulnerabilities/import/import-files.js'),
        import('../store/store.js'),
      ]);
      const started = Date.now();
      const archs = architectures(o.arch);
      if (!NAMESPACE.test(o.namespace)) throw new Error('--namespace: letters, digits, ".", "_" and "-" only, at most 64');
      for (const p of paths) if (!existsSync(p)) throw new Error(`${p}: no such file or directory`);
      const databaseUrl = o.database ?? process.env.BERTH_DATABASE_URL;
      if (!databaseUrl && !existsSync(join(o.data, 'berth.db')))
        throw new Error(`no database in ${o.data} (berth.db): pass the server's --data, or --database`);

      // Paths by format, in the order given.
      const byFormat = new Map<FormatName, string[]>();
      for (const p of paths) {
        let f: FormatName;
        try {
          f = o.format === 'auto' ? await detectFormat(p) : o.format;
        } catch (err) {
          if (err instanceof ImportError) return refuse(err);
          throw err;
        }
        if (!FORMATS[f].read) throw new Error(`${p}: the ${f} format is not available in this build`);
        byFormat.set(f, [...(byFormat.get(f) ?? []), p]);
      }

      const store = await openStore({ databaseUrl, dataDir: o.data, poolSize: 2 });
      const line = new ProgressLine();
      const showProgress = o.progress || process.stderr.isTTY === true;
      const summaries: ImportSummary[] = [];
      try {
        for (const [format, list] of byFormat) {
          const reader = FORMATS[format].read!;
          const summary = await importFiles(store, {
            source: format,
            read: (opts: FormatOptions) => readAll(reader, list, opts),
            architectures: archs,
            namespace: o.namespace,
            group: o.group,
            dryRun: o.dryRun,
            prune: o.prune,
            force: o.force,
            onProgress: showProgress ? (p) => line.update(progressText(format, p), format) : undefined,
          });
          line.clear();
          summaries.push(summary);
          if (summary.error) break;
        }
      } catch (err) {
        line.clear();
        if (err instanceof ImportError) return refuse(err);
        throw err;
      } finally {
        await store.close();
      }
      const usage = process.resourceUsage();
      const stats = o.stats
        ? {
            wallMs: Date.now() - started,
            userCpuMs: Math.round(usage.userCPUTime / 1000),
            systemCpuMs: Math.round(usage.systemCPUTime / 1000),
            maxRssKiB: usage.maxRSS,
          }
        : undefined;
      if (o.output === 'json') {
        const out = summaries.map(({ error, perFile, ...s }) => ({ ...s, ...(o.verbose ? { perFile } : {}), ...(error ? { error: error.message } : {}) }));
        process.stdout.write(`${JSON.stringify({ imports: out, ...(stats ? { stats } : {}) }, null, 2)}\n`);
      } else {
        for (const s of summaries) process.stdout.write(summaryText(s, o.verbose));
        if (stats)
          process.stdout.write(`stats: ${stats.wallMs} ms wall, ${stats.userCpuMs} ms user, ${stats.systemCpuMs} ms system, peak RSS ${stats.maxRssKiB} KiB\n`);
      }
      const failed = summaries.find((s) => s.error);
      if (failed?.error) refuse(failed.error);
    });
}

async function* readAll(
  reader: (path: string, opts: FormatOptions) => AsyncIterable<SourceFile>,
  paths: string[],
  opts: FormatOptions,
): AsyncIterable<SourceFile> {
  for (const p of paths) yield* reader(p, opts);
}

function refuse(err: ImportError): void {
  process.stderr.write(`${err.message}\n`);
  process.exitCode = 1;
}
