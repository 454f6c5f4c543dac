// `grype -o json` → ScannerReport, by reference §3.3's mapping: one entry per
// match (vulnerability × package); Negligible stays NEGLIGIBLE; the fix state
// fixed / not-fixed / wont-fix / unknown maps to FIXED / NOT_FIXED / WONT_FIX /
// UNKNOWN; the report's time is descriptor.timestamp, the database's build
// time descriptor.db.status.built (descriptor.db.built before Grype 0.88).
import { arr, fail, type JsonObject, obj, optionalTime, requiredTime, str, strings } from './report-fields.js';
import {
  cvssScore,
  type FixState,
  isImageDigest,
  MAX_REPORT_MATCHES,
  type ReportSeverity,
  type ReportVulnerability,
  type ScannerReport,
} from './scanner-report.js';
import { readReportJson } from './report-json.js';

const SEVERITIES: Record<string, ReportSeverity> = {
  negligible: 'NEGLIGIBLE',
  low: 'LOW',
  medium: 'MEDIUM',
  high: 'HIGH',
  critical: 'CRITICAL',
};

const FIX_STATES: Record<string, FixState> = { fixed: 'FIXED', 'not-fixed': 'NOT_FIXED', 'wont-fix': 'WONT_FIX' };

export function isGrypeReport(doc: JsonObject): boolean {
  const d = doc.descriptor;
  return d !== null && typeof d === 'object' && !Array.isArray(d) && d.name === 'grype';
}

/** A Grype JSON report's bytes (bounded: see readReportJson). */
export function parseGrypeReport(bytes: Uint8Array): ScannerReport {
  return grypeFromDocument(readReportJson(bytes));
}

/** A Grype JSON document already read by readReportJson. */
export function grypeFromDocument(doc: JsonObject): ScannerReport {
  const descriptor = obj(doc.descriptor, 'descriptor');
  if (descriptor.name !== 'grype') fail('descriptor.name', 'must be "grype"');
  const db = obj(descriptor.db, 'descriptor.db');
  const dbBuildTime = optionalTime(obj(db.status, 'descriptor.db.status').built ?? db.built, 'descriptor.db.status.built');
  const matches = arr(doc.matches, 'matches', MAX_REPORT_MATCHES);
  return {
    scanner: { name: 'GRYPE', version: str(descriptor.version, 'descriptor.version'), ...(dbBuildTime ? { dbBuildTime } : {}) },
    createdAt: requiredTime(descriptor.timestamp, 'descriptor.timestamp'),
    ...imageDigest(doc),
    vulnerabilities: matches.map((m, i) => grypeMatch(obj(m, `matches[${i}]`), `matches[${i}]`)),
  };
}

function imageDigest(doc: JsonObject): { digest?: string } {
  const source = obj(doc.source, 'source');
  if (source.type !== 'image') return {};
  const digest = str(obj(source.target, 'source.target').manifestDigest, 'source.target.manifestDigest');
  return isImageDigest(digest) ? { digest } : {};
}

function grypeMatch(m: JsonObject, where: string): ReportVulnerability {
  const v = obj(m.vulnerability, `${where}.vulnerability`);
  const id = str(v.id, `${where}.vulnerability.id`) || fail(`${where}.vulnerability.id`, 'must be a non-empty string');
  const related = arr(m.relatedVulnerabilities, `${where}.relatedVulnerabilities`).map((r, i) => obj(r, `${where}.relatedVulnerabilities[${i}]`));
  const artifact = obj(m.artifact, `${where}.artifact`);
  const purl = str(artifact.purl, `${where}.artifact.purl`);
  const fix = obj(v.fix, `${where}.vulnerability.fix`);
  const description =
    str(v.description, `${where}.vulnerability.description`) || str(related[0]?.description, `${where}.relatedVulnerabilities[0].description`);
  return {
    id,
    aliases: [...new Set(related.map((r, i) => str(r.id, `${where}.relatedVulnerabilities[${i}].id`)).filter((a) => a !== '' && a !== id))],
    purls: purl ? [purl] : [],
    description,
    details: '',
    severity: SEVERITIES[str(v.severity, `${where}.vulnerability.severity`).toLowerCase()] ?? 'UNKNOWN',
    cvss: arr(v.cvss, `${where}.vulnerability.cvss`).flatMap((c, i) => {
      const entry = obj(c, `${where}.vulnerability.cvss[${i}]`);
      const score = cvssScore(obj(entry.metrics, `${where}.vulnerability.cvss[${i}].metrics`).baseScore);
      return score ? [{ score, version: str(entry.version, `${where}.vulnerability.cvss[${i}].version`) }] : [];
    }),
    fix: {
      versions: strings(fix.versions, `${where}.vulnerability.fix.versions`),
      state: FIX_STATES[str(fix.state, `${where}.vulnerability.fix.state`)] ?? 'UNKNOWN',
    },
    relatedUrls: strings(v.urls, `${where}.vulnerability.urls`),
    locations: [
      ...new Set(
        arr(artifact.locations, `${where}.artifact.locations`)
          .map((l, i) => str(obj(l, `${where}.artifact.locations[${i}]`).path, `${where}.artifact.locations[${i}].path`))
          .filter((p) => p !== ''),
      ),
    ],
    package: {
      name: str(artifact.name, `${where}.artifact.name`),
      version: str(artifact.version, `${where}.artifact.version`),
      purl,
      type: str(artifact.type, `${where}.artifact.type`),
    },
  };
}
