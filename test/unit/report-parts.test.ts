// Berth's reports stored by package (src/scanning/reports/berth-report.ts
// reportParts, scanner-reports/berth-report-parts.ts, reports/splice-parts.ts):
// the parts' texts assemble to exactly JSON.stringify of the report's matches,
// whatever their strings hold; a splice gives exactly the parts — so the text
// and the digest — of the whole report written anew, whichever packages are
// replaced (first, middle, last, all, none, a package that had no match
// gaining some, one losing all); the digest follows every change, and a
// splice that changes nothing is known from the replaced packages' parts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InstalledPackage } from '../../src/scanning/inventory/inventory.js';
import type { VulnMatch } from '../../src/scanning/matching/vuln-match.js';
import { berthReportBody, berthVulnerabilities, reportParts } from '../../src/scanning/reports/berth-report.js';
import { sameParts, spliceParts } from '../../src/scanning/reports/splice-parts.js';
import { assembleText, reportDigest } from '../../src/scanning/scanner-reports/berth-report-parts.js';

const pkg = (i: number): InstalledPackage => ({
  type: 'apk',
  name: `p${i}`,
  version: '1.0-r0',
  purl: `pkg:apk/wolfi/p${i}@1.0-r0`,
  locations: ['lib/apk/db/installed'],
  foundBy: 'apk-db',
});

const SEVERITIES = ['LOW', 'HIGH', 'CRITICAL', 'UNKNOWN'] as const;

function match(packageIndex: number, id: string, description = ''): VulnMatch {
  return {
    packageIndex,
    package: pkg(packageIndex),
    advisoryUid: `uid-${id}`,
    advisoryId: `CGA-${id}`,
    vulnerabilityId: id,
    aliases: [],
    source: 'yaml',
    ecosystem: 'apk:wolfi',
    fix: { state: 'fixed', versions: ['2.0-r0'] },
    severity: SEVERITIES[(packageIndex + id.length) % SEVERITIES.length],
    cvss: [],
    description,
    urls: [],
  };
}

// Descriptions that hold what a match's beginning looks like, and quotes, backslashes, commas and brackets.
const TRICKY = [',{"packageIndex":7,"id":"CVE-0","severity":"HIGH"}', '{"packageIndex":', 'a "quoted" \\ back}slash],[', '\u2028 line'];

function report(): VulnMatch[] {
  const out: VulnMatch[] = [];
  for (let p = 0; p < 8; p++) {
    if (p === 3) continue; // a package with no match
    for (let k = 0; k < (p % 3) + 1; k++) out.push(match(p, `CVE-2024-${1000 + p * 10 + k}`, TRICKY[(p + k) % TRICKY.length]));
  }
  return out;
}

const textOf = (parts: readonly { text: string }[]) => assembleText(parts.map((p) => p.text));

describe('report parts', () => {
  it('assemble to the JSON text of the whole report, one part per package with matches', () => {
    const body = berthReportBody(report());
    assert.equal(textOf(body.parts), JSON.stringify(body.vulnerabilities));
    assert.deepEqual(
      body.parts.map((p) => p.packageIndex),
      [0, 1, 2, 4, 5, 6, 7],
    );
    for (const p of body.parts)
      assert.deepEqual(
        JSON.parse(p.matches),
        body.vulnerabilities.filter((v) => v.packageIndex === p.packageIndex).map((v) => [v.id, v.severity]),
      );
    const empty = berthReportBody([]);
    assert.equal(textOf(empty.parts), '[]');
    assert.equal(empty.digest, reportDigest([]));
    assert.notEqual(empty.digest, body.digest);
  });

  it('splice to the very parts, text and digest of the whole report written anew', () => {
    const before = report();
    const stored = berthReportBody(before);
    const cases: number[][] = [[0], [4], [7], [3], [0, 1, 2, 3, 4, 5, 6, 7], [], [2, 5], [1]];
    const digests = new Set<string>();
    for (const replaced of cases) {
      const set = new Set(replaced);
      // The replaced packages' new matches: one for some, two for others (package 3 had none), none for package 1.
      const fresh = replaced.flatMap((p) =>
        p === 1 ? [] : p % 2 === 0 ? [match(p, `CVE-2025-${p}`, TRICKY[p % 4])] : [match(p, `CVE-2023-${p}`), match(p, `CVE-2026-${p}`)],
      );
      const after = [...before.filter((m) => !set.has(m.packageIndex)), ...fresh];
      const spliced = spliceParts(stored.parts, set, reportParts(berthVulnerabilities(fresh)));
      const whole = berthReportBody(after);
      assert.deepEqual(spliced, whole.parts, `replacing ${replaced.join(',')}`);
      assert.equal(textOf(spliced), JSON.stringify(whole.vulnerabilities));
      assert.equal(reportDigest(spliced), whole.digest);
      // A splice is known to change nothing from the replaced packages' parts alone exactly when the digest stays.
      assert.equal(sameParts(stored.parts, set, reportParts(berthVulnerabilities(fresh))), whole.digest === stored.digest, `replacing ${replaced.join(',')}`);
      const again = reportParts(berthVulnerabilities(before.filter((m) => set.has(m.packageIndex))));
      assert.equal(sameParts(stored.parts, set, again), true, `the stored matches of ${replaced.join(',')} again`);
      assert.equal(sameParts(stored.parts, set, [...again, ...reportParts([...berthVulnerabilities([match(3, 'CVE-1')])])]), false);
      digests.add(whole.digest);
    }
    assert.equal(digests.size, cases.length, 'every change gives another digest');
    assert.ok(digests.has(stored.digest), 'replacing nothing gives the stored one');
  });
});
