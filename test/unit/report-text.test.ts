// The stored text of Berth's reports read and spliced without parsing it
// (src/scanning/reports/report-text.ts): the spans of a report written by
// berthReportBody; text inside strings that looks like a match's beginning
// (escaped in JSON) never reads as one; a splice gives exactly the text of
// the whole report written anew, whichever packages are replaced (first,
// middle, last, all, none, a package that had no match gaining some); text
// in another form reads as undefined.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InstalledPackage } from '../../src/scanning/inventory/inventory.js';
import type { VulnMatch } from '../../src/scanning/matching/vuln-match.js';
import { berthReportBody, berthVulnerabilities } from '../../src/scanning/reports/berth-report.js';
import { matchSpans, spliceText } from '../../src/scanning/reports/report-text.js';

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

// Descriptions that hold what a match's beginning looks like, and quotes, backslashes and brackets.
const TRICKY = [',{"packageIndex":7,"id":"CVE-0","severity":"HIGH"}', '{"packageIndex":', 'a "quoted" \\ back}slash],[', '\u2028 line'];

function report(): VulnMatch[] {
  const out: VulnMatch[] = [];
  for (let p = 0; p < 8; p++) {
    if (p === 3) continue; // a package with no match
    for (let k = 0; k < (p % 3) + 1; k++) out.push(match(p, `CVE-2024-${1000 + p * 10 + k}`, TRICKY[(p + k) % TRICKY.length]));
  }
  return out;
}

describe('report text', () => {
  it('reads every match of a stored report, with its package, id and severity, whatever its strings hold', () => {
    const body = berthReportBody(report());
    const spans = matchSpans(body.text);
    assert.ok(spans);
    assert.deepEqual(
      spans.map((s) => [s.packageIndex, s.id, s.severity]),
      body.vulnerabilities.map((v) => [v.packageIndex, v.id, v.severity]),
    );
    for (const [i, s] of spans.entries()) assert.deepEqual(JSON.parse(body.text.slice(s.start, s.end)), body.vulnerabilities[i]);
    assert.deepEqual(matchSpans('[]'), []);
  });

  it('splices to the very text of the whole report written anew', () => {
    const before = report();
    const text = berthReportBody(before).text;
    const spans = matchSpans(text);
    assert.ok(spans);
    const cases: number[][] = [[0], [4], [7], [3], [0, 1, 2, 3, 4, 5, 6, 7], [], [2, 5]];
    for (const replaced of cases) {
      const set = new Set(replaced);
      // The replaced packages' new matches: one fewer for some, a new one for others (package 3 had none).
      const fresh = replaced.flatMap((p) =>
        p % 2 === 0 ? [match(p, `CVE-2025-${p}`, TRICKY[p % 4])] : [match(p, `CVE-2023-${p}`), match(p, `CVE-2026-${p}`)],
      );
      const after = [...before.filter((m) => !set.has(m.packageIndex)), ...fresh];
      const spliced = spliceText(text, spans, set, berthVulnerabilities(fresh));
      const whole = berthReportBody(after);
      assert.equal(spliced.text, whole.text, `replacing ${replaced.join(',')}`);
      assert.deepEqual(
        spliced.matches,
        whole.vulnerabilities.map((v) => ({ id: v.id, severity: v.severity })),
      );
    }
  });

  it('reads text in another form as undefined (a report stored before this form)', () => {
    assert.equal(matchSpans(JSON.stringify([{ id: 'CVE-1', severity: 'LOW', berth: { packageIndex: 0 } }])), undefined);
    assert.equal(matchSpans('not json'), undefined);
    assert.equal(matchSpans('[{"packageIndex":1,"id":"x"}]'), undefined);
  });
});
