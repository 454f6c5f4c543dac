// berth libraries import: reads an operator's mirror (a Python simple index,
// wheels and sdists, a Maven repository, npm packuments) into a group's
// library catalogue, opening the server's database directly as `berth
// advisories import` does. Files it cannot use are reported with their path
// and skipped; the exit status is then 1, after the rest was imported.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import type { CatalogueImportSummary } from '../libraries/import/import-catalogue.js';
import { ProgressLine } from './progress-line.js';

const HELP = `
What is read (the directory is walked; symbolic links are not followed):
  Python  a PEP 503 simple index (<project>/index.html) or PEP 691 JSON
          pages (PEP 700 size and upload-time used when present); wheels and
          sdists they link to under DIR are read for METADATA / PKG-INFO
          (Summary, Name); other *.whl / *.tar.gz / *.zip files are grouped
          by their PEP 503 name. A cuNNN directory (cu128/simple/torch/) or a
          +cuNNN local version marks a CUDA build; +cgr.N a remediated one.
  Java    a Maven repository layout: each <artifactId>/maven-metadata.xml,
          with <version>/<artifactId>-<version>.pom (description) and .jar
          (size, time); -0.cgr.N marks a remediated version.
  npm     packuments (*.json with name and versions{}, as a registry
          mirror stores them).

Idempotent: importing the same mirror again changes nothing; versions
missing from a later mirror are kept. --dry-run reports the same summary and
writes nothing.

Group (--group, a uid or a name): the catalogue's group, by default the
organization created on the server's first start. Whoever holds
libraries.artifacts.list at, above or below it lists it.

Examples:
  berth libraries import /srv/mirror --data ./data
  berth libraries import /srv/maven --group platform-team --dry-run
  berth libraries import /srv/pypi --database postgres://berth@db/berth`;

interface Flags {
  group?: string;
  dryRun: boolean;
  data: string;
  database?: string;
  progress: boolean;
  output: 'table' | 'json';
}

function summaryText(dir: string, s: CatalogueImportSummary): string {
  const lines = [
    `${dir}${s.dryRun ? ' (dry run, nothing written)' : ''}: ${s.files} files · ${s.artifacts.python} python, ${s.artifacts.java} java, ${s.artifacts.javascript} javascript artifacts · ${s.versionsRead} versions read`,
    `artifacts +${s.artifactsAdded} ~${s.artifactsChanged} · versions +${s.versionsAdded} ~${s.versionsChanged} =${s.versionsUnchanged}`,
    `into group ${s.groupName} (${s.group})`,
  ];
  return `${lines.join('\n')}\n`;
}

export function librariesImportCommand(group: Command): void {
  group
    .command('import')
    .description('Import a mirror of library packages (a directory) into the catalogue of a group')
    .argument('<dir>', 'the mirror: a Python simple index or distribution files, a Maven repository, npm packuments')
    .option('--group <group>', 'group to import into, a uid or a name (default: the first-start organization)')
    .option('--dry-run', 'report what would change, write nothing', false)
    .option('--data <dir>', "the server's data directory (SQLite file)", './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data')
    .option('--progress', 'show progress even when stderr is not a terminal', false)
    .addOption(new Option('-o, --output <format>', 'summary format').choices(['table', 'json']).default('table'))
    .addHelpText('after', HELP)
    .action(async (dir: string, o: Flags) => {
      // The importer and the store are loaded here: other commands start without them.
      const [{ importCatalogue }, { openStore }] = await Promise.all([import('../libraries/import/import-catalogue.js'), import('../store/store.js')]);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir}: not a directory`);
      const databaseUrl = o.database ?? process.env.BERTH_DATABASE_URL;
      if (!databaseUrl && !existsSync(join(o.data, 'berth.db')))
        throw new Error(`no database in ${o.data} (berth.db): pass the server's --data, or --database`);
      const store = await openStore({ databaseUrl, dataDir: o.data, poolSize: 2 });
      const line = new ProgressLine();
      const show = o.progress || process.stderr.isTTY === true;
      let summary: CatalogueImportSummary;
      try {
        summary = await importCatalogue(store, {
          dir,
          group: o.group,
          dryRun: o.dryRun,
          onProgress: show
            ? (p) =>
                line.update(
                  p.phase === 'read'
                    ? `import ${dir}: read ${p.files} files · ${p.artifacts} artifacts · ${p.problems} skipped`
                    : `import ${dir}: wrote ${p.written} of ${p.artifacts} artifacts`,
                  p.phase,
                )
            : undefined,
        });
      } finally {
        line.clear();
        await store.close();
      }
      for (const p of summary.problems) process.stderr.write(`${p.path}: ${p.message} (skipped)\n`);
      if (o.output === 'json') process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      else process.stdout.write(summaryText(dir, summary));
      if (summary.problems.length > 0) process.exitCode = 1;
    });
}
