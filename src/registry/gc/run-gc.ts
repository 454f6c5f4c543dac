// Registry garbage collection (`berth registry gc`): removes what nothing
// references, while the server serves, from a process of its own.
//
// What "nothing references" means (cutoff = start of the run − grace; a
// thing's age is its push_time, or for bytes BlobInfo.modified):
// - Manifests are deleted only with deleteUntagged (--delete-untagged). Then
//   a manifest is live when a tag points at it, it was pushed after the
//   cutoff, a live index lists it, or its subject is a live manifest
//   (referrers of a live image stay) — transitively, within its repo. The
//   others go, through deleteManifest. Without it every manifest stays:
//   untagged manifests are often still pulled by digest.
// - A blob link (repo_blobs) is live when a kept manifest of its repo lists
//   the blob, or it was pushed (uploaded or mounted) after the cutoff — its
//   manifest may not be pushed yet. Dead links are removed.
// - A blob with no link left goes with its bytes, unless the bytes were
//   committed after the cutoff (an upload in flight). Bytes with no blob row
//   (a crash between commit and link) go once older than the cutoff.
// - Uploads started before now − upload grace are cancelled (the session row
//   and the blob store's upload, crash leftovers included).
//
// Phases, in this order: uploads, repos (mark, then sweep manifests, then
// links), blob rows, blob files. A dry run reads the same way and counts what
// the sweeps would delete; it changes nothing.
//
// Why it is safe next to a serving registry (SQLite or PostgreSQL):
// - A repo's content graph changes only under its content lock
//   (content/repo-content-lock.ts): putManifest, createTag and linkBlob take
//   it shared before they read; gc takes it exclusive and re-checks every
//   manifest and link it deletes inside that transaction. So putManifest's
//   check that every blob is linked and every child exists holds until it
//   commits: no manifest is ever stored whose blobs gc removed, and no tag is
//   set on a manifest gc deleted. A push that loses the race is refused
//   (MANIFEST_BLOB_UNKNOWN) and the client pushes again.
// - Bytes go only in collect-blob.ts's transaction, holding the blob's row
//   lock after seeing no link; linking locks that row first and then checks
//   the bytes exist. So a blob a client is told is stored (201) has bytes and
//   a link, and a link is never made to bytes gc deleted.
// - Re-pushing identical content renews what the grace is measured from: a
//   manifest's and a link's push_time, and the bytes' modified time. A
//   client told its blob or manifest is stored keeps it for the grace even
//   if an older copy was garbage; a client that only asked (HEAD) and then
//   pushes a manifest may be refused, as with any registry.
// - On PostgreSQL the locks are row locks on the repos and blobs rows
//   (READ COMMITTED: each statement after a lock sees what the holder
//   committed); SQLite runs one write transaction at a time. Transactions are
//   short (a batch of 100 manifests, 200 links, one blob), so the server's
//   writes wait milliseconds, never SQLite's 5 s write deadline.
// - The grace is what protects a push between its steps (blob, then
//   manifest). --grace 0s turns that off: pushes running during gc may be
//   refused and have to be retried; nothing acknowledged as stored and
//   referenced is lost either way.
import { cutoffsOf, type GcOptions, type GcTargets } from './gc-options.js';
import type { GcRun } from './gc-run.js';
import { emptyReport, type GcReport } from './gc-report.js';
import { sweepBlobRows } from './sweep-blobs.js';
import { sweepBlobFiles } from './sweep-files.js';
import { sweepRepos } from './sweep-repos.js';
import { sweepUploads } from './sweep-uploads.js';

export async function runGc(targets: GcTargets, opts: GcOptions): Promise<GcReport> {
  const report = emptyReport(opts.dryRun);
  const run: GcRun = {
    ...targets,
    cutoffs: cutoffsOf(opts),
    dryRun: opts.dryRun,
    deleteUntagged: opts.deleteUntagged,
    report,
    progress: (phase, done, total) => opts.onProgress?.({ phase, done, total, report }),
    stopped: () => {
      if (opts.signal?.aborted) report.interrupted = true;
      return report.interrupted;
    },
    plannedUnlinks: new Map(),
  };
  for (const phase of [sweepUploads, sweepRepos, sweepBlobRows, sweepBlobFiles]) {
    if (run.stopped()) break;
    await phase(run);
  }
  return report;
}
