// The `scanner-report` scan job: a referrer manifest carrying a scanner report
// (report-artifact-types.ts) was pushed. The run reads its one layer from the
// blob store (bounded), parses it (parse-scanner-report.ts) and stores the
// report for the referrer's subject in every repo holding that referrer. A
// layer that is not a report Berth reads fails the run with the parser's
// reason, kept on the job row once its retries are spent.
import type { Readable } from 'node:stream';
import { nowIso } from '../../core/clock.js';
import { parseDigest } from '../../registry/content/digest.js';
import type { CreatedManifest } from '../../registry/content/manifest-observer.js';
import type { Executor } from '../../store/transact.js';
import type { JobContext, JobKind, JobOutcome } from '../jobs/job-kind.js';
import { parseScannerReport } from './parse-scanner-report.js';
import { MAX_REPORT_LAYER_BYTES, SCANNER_REPORT_ARTIFACT_TYPES } from './report-artifact-types.js';
import { type ScannerReport, ScannerReportError } from './scanner-report.js';
import { storeScannerReport } from './store-scanner-report.js';

export const SCANNER_REPORT_JOB = 'scanner-report';

/** Repos holding one referrer manifest that one run stores the report for. */
const MAX_REPOS = 100;

export const scannerReportJob: JobKind = {
  triggeredBy(m: CreatedManifest): string[] {
    return m.kind === 'image' && m.subjectDigest !== undefined && m.artifactType !== undefined && SCANNER_REPORT_ARTIFACT_TYPES.has(m.artifactType)
      ? [m.digest]
      : [];
  },

  async run(ctx: JobContext): Promise<JobOutcome> {
    const holders = await ctx.store.db
      .selectFrom('manifests')
      .select(['repo_uid', 'subject_digest'])
      .where('digest', '=', ctx.job.digest)
      .where('subject_digest', 'is not', null)
      .orderBy('repo_uid')
      .limit(MAX_REPOS)
      .execute();
    if (holders.length === 0) return {}; // deleted since it was pushed
    const layer = await reportLayer(ctx.store.db, holders[0].repo_uid, ctx.job.digest);
    const raw = await readBounded(ctx, layer);
    const report: ScannerReport = parseScannerReport(raw);
    ctx.progress.setTotal(1);
    ctx.progress.read(raw.byteLength);
    ctx.progress.layerDone();
    return {
      async write(tx) {
        const now = nowIso();
        for (const h of holders) {
          await storeScannerReport(tx, { repoUid: h.repo_uid, digest: h.subject_digest as string, report, raw, referrerDigest: ctx.job.digest, now });
        }
      },
    };
  },
};

/** The referrer's one layer (config is position 0 in manifest_refs). */
async function reportLayer(db: Executor, repoUid: string, manifestDigest: string): Promise<{ digest: string; size: number }> {
  const layers = await db
    .selectFrom('manifest_refs')
    .select(['child_digest', 'size'])
    .where('repo_uid', '=', repoUid)
    .where('manifest_digest', '=', manifestDigest)
    .where('kind', '=', 'blob')
    .where('position', '>', 0)
    .orderBy('position')
    .limit(2)
    .execute();
  if (layers.length !== 1)
    throw new ScannerReportError(`a scanner report referrer has exactly one layer (this one has ${layers.length === 0 ? 'none' : 'several'})`);
  return { digest: layers[0].child_digest, size: Number(layers[0].size) };
}

async function readBounded(ctx: JobContext, layer: { digest: string; size: number }): Promise<Uint8Array> {
  if (layer.size > MAX_REPORT_LAYER_BYTES) throw new ScannerReportError(`the report layer is ${layer.size} bytes, more than ${MAX_REPORT_LAYER_BYTES}`);
  const digest = parseDigest(layer.digest);
  const stream: Readable | undefined = digest ? await ctx.blobs.read(digest, { offset: 0, end: MAX_REPORT_LAYER_BYTES + 1 }) : undefined;
  if (!stream) throw new Error(`the report layer ${layer.digest} is not in the blob store`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    ctx.signal.throwIfAborted();
    total += chunk.byteLength;
    if (total > MAX_REPORT_LAYER_BYTES) {
      stream.destroy();
      throw new ScannerReportError(`the report layer is more than ${MAX_REPORT_LAYER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
