// Severity from the vulnerability metadata's CVSS vectors: each vector's base
// score computed by ae-cvss-calculator, the highest deciding (0.1–3.9 LOW,
// 4.0–6.9 MEDIUM, 7.0–8.9 HIGH, 9.0–10 CRITICAL, 0 NEGLIGIBLE, none UNKNOWN).
import cvssCalculator from 'ae-cvss-calculator';
import type { CvssScore, Severity } from './vuln-match.js';

/** Vectors longer than this are no CVSS vector (the longest real v4 vector is far shorter). */
const MAX_VECTOR = 512;

function versionOf(vector: string): string {
  const m = /^CVSS:(\d\.\d)\//.exec(vector);
  return m ? m[1] : '2.0';
}

/** The base score of a CVSS vector; undefined when it is not one. */
export function cvssScore(vector: string): CvssScore | undefined {
  if (vector.length > MAX_VECTOR) return undefined;
  try {
    const parsed = cvssCalculator.fromVector(vector);
    if (!parsed) return undefined;
    const scores = parsed.calculateScores() as { base?: number; overall: number };
    const score = scores.base ?? scores.overall;
    if (typeof score !== 'number' || !Number.isFinite(score)) return undefined;
    return { version: versionOf(vector), score, vector };
  } catch {
    return undefined;
  }
}

export function severityOfScore(score: number | undefined): Severity {
  if (score === undefined) return 'UNKNOWN';
  if (score >= 9) return 'CRITICAL';
  if (score >= 7) return 'HIGH';
  if (score >= 4) return 'MEDIUM';
  if (score > 0) return 'LOW';
  return 'NEGLIGIBLE';
}

/** The scores of vulnerability_metadata.severities (JSON [{type, score: vector}]) and the severity of the highest. */
export function severityOf(severitiesJson: string | undefined): { severity: Severity; cvss: CvssScore[] } {
  if (!severitiesJson) return { severity: 'UNKNOWN', cvss: [] };
  let list: unknown;
  try {
    list = JSON.parse(severitiesJson);
  } catch {
    return { severity: 'UNKNOWN', cvss: [] };
  }
  const cvss: CvssScore[] = [];
  if (Array.isArray(list))
    for (const s of list) {
      const vector = (s as { score?: unknown })?.score;
      const scored = typeof vector === 'string' ? cvssScore(vector) : undefined;
      if (scored) cvss.push(scored);
    }
  const best = cvss.length > 0 ? Math.max(...cvss.map((c) => c.score)) : undefined;
  return { severity: severityOfScore(best), cvss };
}
