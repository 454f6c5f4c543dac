// berth registry gc: the registry's garbage collection, run as a process of
// its own against the server's data directory (blob store) and database, the
// way `berth admin` commands open the store. It is safe while the server
// serves; the rules and the reasoning are in src/registry/gc/run-gc.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import type { ClosableBlobStore } from '../registry/blobs/open-blob-store.js';
import { DEFAULT_GRACE_MS, DEFAULT_UPLOAD_GRACE_MS, MAX_GRACE_MS } from '../registry/gc/gc-options.js';
import type { GcProgress, GcReport } from '../registry/gc/gc-report.js';
import { parseDurationFlag } from './duration-flag.js';
import { ProgressLine } from './progress-line.js';

const RULES = `
What goes (cutoff = now - --grace):
  blob links     a repo's link to a blob no manifest of that repo lists,
                 pushed or mounted before the cutoff
  blobs          a blob no repo links any more, with its bytes, unless the
                 bytes were committed after the cutoff; bytes with no record
                 (a crash between upload and link) older than the cutoff
  uploads        uploads started before now - --upload-grace
  manifests      only with --delete-untagged: a manifest no tag points at,
                 pushed before the cutoff, that no live index lists and whose
                 subject (if any) is not live. Signatures, SBOMs and other
                 referrers of a live image stay, as do an index's platforms.
Without --delete-untagged no manifest is deleted: untagged images stay
pullable by digest, and so do their blobs.

It runs next to a serving registry (SQLite or PostgreSQL): every deletion
is re-checked under a lock the pushes take too, so a pushed image is never
left missing a blob. A push racing a deletion of the same content may be
refused and retried by the client. The grace protects pushes between their
blob and manifest steps; --grace 0s removes that protection.

Examples:
  berth registry gc --data ./data --dry-run
  berth registry gc --database postgres://berth@db/berth --data /srv/berth --delete-untagged
  berth registry gc --data ./data -o json`;

function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${v.toFixed(1)} ${units[u]}`;
}

function where(p: GcProgress): string {
  return p.total === undefined ? `${p.phase} ${p.done}` : `${p.phase} ${p.done}/${p.total}`;
}

function progressText(r: Readonly<GcReport>, at: string): string {
  return (
    `gc${r.dryRun ? ' (dry run)' : ''} [${at}] manifests ${r.manifestsDeleted} · links ${r.linksRemoved} · ` +
    `blobs ${r.blobsDeleted} (${formatBytes(r.bytesFreed)}) · uploads ${r.uploadsCancelled}`
  );
}

function summary(r: GcReport, seconds: string): string {
  const head = r.dryRun ? 'Dry run: nothing was changed. A run now would remove:' : `Removed in ${seconds}:`;
  const rows: [string, string][] = [
    ['manifests', String(r.manifestsDeleted)],
    ['blob links', String(r.linksRemoved)],
    ['blobs', String(r.blobsDeleted)],
    ['bytes', `${formatBytes(r.bytesFreed)} (${r.bytesFreed})`],
    ['uploads', String(r.uploadsCancelled)],
  ];
  const tail = r.interrupted ? '\nInterrupted before the end: run it again to finish.' : '';
  return `${head}\n${rows.map(([k, v]) => `  ${k.padEnd(11)}${v}`).join('\n')}\n(${r.reposScanned} repos scanned)${tail}\n`;
}

interface GcFlags {
  data: string;
  database?: string;
  grace: string;
  uploadGrace: string;
  deleteUntagged: boolean;
  dryRun: boolean;
  output: 'table' | 'json';
  blobStore: string;
  s3Endpoint?: string;
  s3Region?: string;
  s3PathStyle: boolean;
}

export function registryCommand(program: Command): void {
  const registry = program.command('registry').description("Operator commands on the registry's stored content (on the data directory and database)");
  registry
    .command('gc')
    .description('Remove blobs, blob links and stale uploads nothing references (and untagged manifests with --delete-untagged)')
    .option('--data <dir>', "the server's data directory (blob store in <dir>/registry; SQLite file)", './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data')
    .option('--blob-store <url>', 'the server\'s --blob-store: "filesystem" (under --data) or s3://BUCKET/PREFIX', 'filesystem')
    .option('--s3-endpoint <url>', "the server's --s3-endpoint")
    .option('--s3-region <region>', "the server's --s3-region")
    .option('--s3-path-style', "as the server's --s3-path-style", false)
    .option('--grace <duration>', 'keep manifests, blob links and blobs pushed more recently than this', `${DEFAULT_GRACE_MS / 3_600_000}h`)
    .option('--upload-grace <duration>', 'keep uploads started more recently than this', `${DEFAULT_UPLOAD_GRACE_MS / 3_600_000}h`)
    .option('--delete-untagged', 'also delete untagged manifests nothing live reaches (and then their blobs)', false)
    .option('--dry-run', 'report what would be removed, change nothing', false)
    .addOption(new Option('-o, --output <format>', 'summary format').choices(['table', 'json']).default('table'))
    .addHelpText('after', RULES)
    .action(async (o: GcFlags) => {
      // The blob stores, gc and the store are loaded here: other commands start without them.
      const [{ registryBlobRoot }, { blobStoreSpec, openFsBlobStore, openS3BlobStore }, { runGc }, { openStore }] = await Promise.all([
        import('../registry/blobs/fs-blob-layout.js'),
        import('../registry/blobs/open-blob-store.js'),
        import('../registry/gc/run-gc.js'),
        import('../store/store.js'),
      ]);
      const graceMs = parseDurationFlag('--grace', o.grace, 0, MAX_GRACE_MS);
      const uploadGraceMs = parseDurationFlag('--upload-grace', o.uploadGrace, 0, MAX_GRACE_MS);
      const databaseUrl = o.database ?? process.env.BERTH_DATABASE_URL;
      const spec = blobStoreSpec(o);
      // A mistyped --data must not create an empty store to collect.
      if (spec.kind === 'filesystem' && !existsSync(registryBlobRoot(o.data)))
        throw new Error(`no registry data in ${o.data} (expected ${registryBlobRoot(o.data)}): pass the server's --data`);
      if (!databaseUrl && !existsSync(join(o.data, 'berth.db')))
        throw new Error(`no database in ${o.data} (berth.db): pass the server's --data, or --database`);
      const store = await openStore({ databaseUrl, dataDir: o.data, poolSize: 2 });
      const abort = new AbortController();
      const stop = () => {
        if (abort.signal.aborted) process.exit(130);
        abort.abort();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      const line = new ProgressLine();
      const started = Date.now();
      let blobs: ClosableBlobStore | undefined;
      try {
        // gc takes no lock on a filesystem root (see fs-blob-store.ts); on S3, every instance and gc share the bucket.
        blobs = spec.kind === 's3' ? await openS3BlobStore(spec, store) : (await openFsBlobStore(spec, o.data, false))!;
        const report = await runGc(
          { store, blobs },
          {
            graceMs,
            uploadGraceMs,
            deleteUntagged: o.deleteUntagged,
            dryRun: o.dryRun,
            signal: abort.signal,
            onProgress: (p) => line.update(progressText(p.report, where(p)), p.phase),
          },
        );
        line.done(progressText(report, report.interrupted ? 'interrupted' : 'done'));
        const seconds = `${((Date.now() - started) / 1000).toFixed(1)}s`;
        process.stdout.write(o.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : summary(report, seconds));
        if (report.interrupted) process.exitCode = 130;
      } finally {
        line.clear();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        await blobs?.close();
        await store.close();
      }
    });
}
