// A Grype JSON report (`grype -o json`, the fields Berth reads) with the
// matches a test names, written to a file for `berth images scans import`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GrypeMatch {
  id: string;
  aliases?: string[];
  /** Grype's words: Critical, High, Medium, Low, Negligible, Unknown. */
  severity: string;
  pkg: string;
  version: string;
  fixed?: string[];
  /** fixed, not-fixed, wont-fix, unknown (default: fixed when `fixed` is given, else not-fixed). */
  state?: string;
}

export function grypeReport(timestamp: string, matches: readonly GrypeMatch[], version = '0.79.3'): string {
  return JSON.stringify({
    matches: matches.map((m) => ({
      vulnerability: {
        id: m.id,
        severity: m.severity,
        urls: [`https://example.com/${m.id}`],
        cvss: [],
        fix: { versions: m.fixed ?? [], state: m.state ?? (m.fixed ? 'fixed' : 'not-fixed') },
      },
      relatedVulnerabilities: (m.aliases ?? []).map((id) => ({ id, description: `${id} in ${m.pkg}` })),
      artifact: {
        name: m.pkg,
        version: m.version,
        type: 'apk',
        purl: `pkg:apk/alpine/${m.pkg}@${m.version}?arch=x86_64&distro=alpine-3.19.1`,
        locations: [{ path: '/lib/apk/db/installed' }],
      },
    })),
    source: { type: 'image', target: {} },
    descriptor: { name: 'grype', version, timestamp, db: { status: { built: '2025-03-14T01:31:06Z' } } },
  });
}

/** The report as a file in a fresh temporary directory. */
export function grypeReportFile(timestamp: string, matches: readonly GrypeMatch[], version?: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'berth-grype-')), 'grype.json');
  writeFileSync(file, grypeReport(timestamp, matches, version));
  return file;
}
