// berth advisories import-metadata: reads OSV records (a file, a directory of
// *.json, or an ecosystem's all.zip) into vulnerability metadata — what
// /advisory/v2/metadata serves and what gives advisories their severities —
// opening the server's database directly, like `berth advisories import`.
// An upsert by id: importing the same records again changes nothing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { MetadataWriteSummary } from '../vulnerabilities/import/metadata-writer.js';
import type { VulnerabilityMetadataRecord } from '../vulnerabilities/import/osv-metadata.js';
import { ImportError } from '../vulnerabilities/import/normalized-advisory.js';
import { ProgressLine } from './progress-line.js';

/** Records per transaction: big enough to be fast, small enough to keep a batch's memory and lock time short. */
const BATCH = 500;

interface Flags {
  dryRun: boolean;
  data: string;
  database?: string;
}

export function registerImportMetadataCommand(advisories: Command): void {
  advisories
    .command('import-metadata')
    .description('Import vulnerability metadata (summary, details, references, CVSS severities) from OSV records')
    .argument('<path...>', 'OSV JSON files, directories of them, or an all.zip')
    .option('--dry-run', 'report what would change, write nothing', false)
    .option('--data <dir>', "the server's data directory (SQLite file)", './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data')
    .addHelpText(
      'after',
      `
Each OSV record becomes the metadata of its id: summary, details, references
(OSV's GIT type and unknown types as TYPE_WEB), severities (CVSS v2/v3/v4;
Ubuntu ratings have no API value and are dropped). Withdrawn records are
skipped. A record whose stored metadata is the same is not written, so a
re-import prints "+0 added ~0 changed". A refused file stops the run with
"file:line: message" and exit status 1; batches before it were written.

Examples:
  berth advisories import-metadata ./osv/all.zip --data ./data
  berth advisories import-metadata ./osv --database postgres://berth@db/berth --dry-run`,
    )
    .action(async (paths: string[], o: Flags) => {
      // The importer and the store are loaded here: other commands start without them.
      const [{ writeVulnerabilityMetadata }, { osvMetadata }, { describeDatabase, openStore }, { parseJsonBytes }, { readJsonSources }] = await Promise.all([
        import('../vulnerabilities/import/metadata-writer.js'),
        import('../vulnerabilities/import/osv-metadata.js'),
        import('../store/store.js'),
        import('../vulnerabilities/import/json-input.js'),
        import('../vulnerabilities/import/json-sources.js'),
      ]);
      const databaseUrl = o.database ?? process.env.BERTH_DATABASE_URL;
      if (!databaseUrl && !existsSync(join(o.data, 'berth.db')))
        throw new Error(`no Berth database in ${o.data} (expected ${join(o.data, 'berth.db')}): pass the server's --data or --database`);
      const store = await openStore({ databaseUrl, dataDir: o.data, poolSize: 2 });
      const progress = new ProgressLine();
      const total: MetadataWriteSummary = { added: 0, changed: 0, unchanged: 0 };
      let records = 0;
      let withdrawn = 0;
      let batch: VulnerabilityMetadataRecord[] = [];
      const flush = async () => {
        const s = await writeVulnerabilityMetadata(store, batch, o.dryRun);
        total.added += s.added;
        total.changed += s.changed;
        total.unchanged += s.unchanged;
        batch = [];
        progress.update(`metadata: ${records} records read, +${total.added} ~${total.changed}`, 'read');
      };
      try {
        for (const path of paths)
          for await (const source of readJsonSources(path)) {
            const record = osvMetadata(source.file, parseJsonBytes(source.file, source.bytes));
            records++;
            if (!record) withdrawn++;
            else batch.push(record);
            if (batch.length >= BATCH) await flush();
          }
        await flush();
      } catch (err) {
        progress.clear();
        if (err instanceof ImportError) throw new Error(err.message);
        throw err;
      } finally {
        await store.close();
      }
      progress.clear();
      const where = describeDatabase({ databaseUrl, dataDir: o.data });
      process.stdout.write(
        `metadata${o.dryRun ? ' (dry run, nothing written)' : ''}: +${total.added} added ~${total.changed} changed =${total.unchanged} unchanged` +
          `${withdrawn > 0 ? ` (${withdrawn} withdrawn skipped)` : ''} in ${where}\n`,
      );
    });
}
