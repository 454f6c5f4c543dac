// Tags that move over days, for the day-by-day report tests: images pushed
// with skopeo to one tag in turn (each push moves it), the tag's history
// rows then backdated so the moves fall on chosen days (a push cannot be
// made in the past), and Grype JSON reports written for each image.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Berth } from './berth-process.js';
import { sqlQuery } from './database.js';
import { type ImageSpec, type WrittenImage, writeImage } from './oci-layout.js';
import { creds, skopeo } from './skopeo.js';

/** Pushes a new image to `<org>/<repo>:<tag>` (moving the tag; org: the test's organization by default); returns it. */
export async function pushToTag(
  berth: Berth,
  host: string,
  regToken: string,
  repo: string,
  tag: string,
  spec: ImageSpec,
  org = berth.orgName,
): Promise<WrittenImage> {
  const layout = mkdtempSync(join(tmpdir(), 'berth-moves-'));
  const image = await writeImage(layout, tag, spec);
  const pushed = await skopeo([
    'copy',
    '--preserve-digests',
    ...creds('dest', '_token', regToken),
    `oci:${layout}:${tag}`,
    `docker://${host}/${org}/${repo}:${tag}`,
  ]);
  assert.equal(pushed.code, 0, pushed.stderr);
  return image;
}

/** Sets the tag's history records, oldest first, to `times` (one per record, as many as there are). */
export async function backdateTag(berth: Berth, repoUid: string, tag: string, times: readonly string[]): Promise<string[]> {
  const rows = await sqlQuery(berth, 'select id, digest from tag_history where repo_uid = $1 and tag_name = $2 order by id', [repoUid, tag]);
  assert.equal(rows.length, times.length, `the tag has ${rows.length} history records`);
  for (const [i, row] of rows.entries()) await sqlQuery(berth, 'update tag_history set update_time = $1 where id = $2', [times[i], row.id]);
  return rows.map((r) => String(r.digest));
}

export interface GrypeVuln {
  id: string;
  severity: 'Critical' | 'High' | 'Medium' | 'Low' | 'Negligible' | 'Unknown';
  aliases?: string[];
  pkg?: string;
}

/** A minimal Grype JSON report made at `timestamp`; written to a temporary file whose path is returned. */
export function grypeReportFile(timestamp: string, vulns: readonly GrypeVuln[]): string {
  const doc = {
    matches: vulns.map((v) => ({
      vulnerability: { id: v.id, severity: v.severity, fix: { versions: [], state: 'unknown' } },
      relatedVulnerabilities: (v.aliases ?? []).map((id) => ({ id })),
      artifact: { name: v.pkg ?? 'busybox', version: '1.0-r0', type: 'apk', purl: `pkg:apk/wolfi/${v.pkg ?? 'busybox'}@1.0-r0` },
    })),
    source: { type: 'image', target: {} },
    descriptor: { name: 'grype', version: '0.80.0', db: { status: { built: '2026-01-01T00:00:00Z' } }, timestamp },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'berth-grype-')), 'grype.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}
