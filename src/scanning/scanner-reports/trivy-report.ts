// `trivy image -f json` (SchemaVersion 2) → ScannerReport, by reference §3.3's
// mapping: one entry per Results[].Vulnerabilities[] item; Status not_affected
// is dropped; FixedVersion is split on ","; Status fixed → FIXED, affected /
// fix_deferred / under_investigation → NOT_FIXED, will_not_fix / end_of_life →
// WONT_FIX (a report without Status, from Trivy before 0.36, is FIXED when it
// names a fixed version); one cvss entry per source and CVSS version.
import { arr, fail, type JsonObject, obj, requiredTime, str, strings } from './report-fields.js';
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

const SEVERITIES = new Set<ReportSeverity>(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);

const STATUSES: Record<string, FixState | 'DROP'> = {
  fixed: 'FIXED',
  affected: 'NOT_FIXED',
  fix_deferred: 'NOT_FIXED',
  under_investigation: 'NOT_FIXED',
  will_not_fix: 'WONT_FIX',
  end_of_life: 'WONT_FIX',
  not_affected: 'DROP',
  unknown: 'UNKNOWN',
};

export function isTrivyReport(doc: JsonObject): boolean {
  return typeof doc.SchemaVersion === 'number' && (Array.isArray(doc.Results) || typeof doc.ArtifactName === 'string');
}

/** A Trivy JSON report's bytes (bounded: see readReportJson). */
export function parseTrivyReport(bytes: Uint8Array): ScannerReport {
  return trivyFromDocument(readReportJson(bytes));
}

/** A Trivy JSON document already read by readReportJson. */
export function trivyFromDocument(doc: JsonObject): ScannerReport {
  if (doc.SchemaVersion !== 2) fail('SchemaVersion', `${JSON.stringify(doc.SchemaVersion)?.slice(0, 20)} is not 2 (Trivy's JSON since 0.20)`);
  const vulnerabilities: ReportVulnerability[] = [];
  for (const [r, result] of arr(doc.Results, 'Results', MAX_REPORT_MATCHES).entries()) {
    const res = obj(result, `Results[${r}]`);
    const type = str(res.Type, `Results[${r}].Type`);
    const items = arr(res.Vulnerabilities, `Results[${r}].Vulnerabilities`, MAX_REPORT_MATCHES);
    if (vulnerabilities.length + items.length > MAX_REPORT_MATCHES) fail('Results', `more than ${MAX_REPORT_MATCHES} vulnerabilities`);
    for (const [i, item] of items.entries()) {
      const v = trivyVulnerability(obj(item, `Results[${r}].Vulnerabilities[${i}]`), type, `Results[${r}].Vulnerabilities[${i}]`);
      if (v) vulnerabilities.push(v);
    }
  }
  return {
    scanner: { name: 'TRIVY', version: str(obj(doc.Trivy, 'Trivy').Version, 'Trivy.Version') },
    createdAt: requiredTime(doc.CreatedAt, 'CreatedAt'),
    ...repoDigest(doc),
    vulnerabilities,
  };
}

/** The digest part of the first Metadata.RepoDigests entry (`name@sha256:…`). */
function repoDigest(doc: JsonObject): { digest?: string } {
  const digests = strings(obj(doc.Metadata, 'Metadata').RepoDigests, 'Metadata.RepoDigests');
  const digest = digests[0]?.slice(digests[0].lastIndexOf('@') + 1) ?? '';
  return isImageDigest(digest) ? { digest } : {};
}

function trivyVulnerability(v: JsonObject, type: string, where: string): ReportVulnerability | undefined {
  const status = str(v.Status, `${where}.Status`);
  const fixedVersions = str(v.FixedVersion, `${where}.FixedVersion`)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const state = status === '' ? (fixedVersions.length > 0 ? 'FIXED' : 'UNKNOWN') : (STATUSES[status] ?? 'UNKNOWN');
  if (state === 'DROP') return undefined;
  const id = str(v.VulnerabilityID, `${where}.VulnerabilityID`) || fail(`${where}.VulnerabilityID`, 'must be a non-empty string');
  const purl = str(obj(v.PkgIdentifier, `${where}.PkgIdentifier`).PURL, `${where}.PkgIdentifier.PURL`);
  const severity = str(v.Severity, `${where}.Severity`) as ReportSeverity;
  const primary = str(v.PrimaryURL, `${where}.PrimaryURL`);
  const pkgPath = str(v.PkgPath, `${where}.PkgPath`);
  return {
    id,
    aliases: strings(v.VendorIDs, `${where}.VendorIDs`).filter((a) => a !== id),
    purls: purl ? [purl] : [],
    description: str(v.Description, `${where}.Description`) || str(v.Title, `${where}.Title`),
    details: '',
    severity: SEVERITIES.has(severity) ? severity : 'UNKNOWN',
    cvss: cvssEntries(obj(v.CVSS, `${where}.CVSS`), `${where}.CVSS`),
    fix: { versions: fixedVersions, state },
    relatedUrls: [...new Set([...(primary ? [primary] : []), ...strings(v.References, `${where}.References`)])],
    locations: pkgPath ? [pkgPath] : [],
    package: { name: str(v.PkgName, `${where}.PkgName`), version: str(v.InstalledVersion, `${where}.InstalledVersion`), purl, type },
  };
}

/** One entry per source and version present: V2Score → "2.0", V3Score → the vector's 3.x, V40Score → "4.0". */
function cvssEntries(cvss: JsonObject, where: string): Array<{ score: string; version: string }> {
  const out: Array<{ score: string; version: string }> = [];
  const sources = Object.keys(cvss);
  if (sources.length > 64) fail(where, 'more than 64 sources');
  for (const source of sources) {
    const c = obj(cvss[source], `${where}.${source}`);
    const v2 = cvssScore(c.V2Score);
    const v3 = cvssScore(c.V3Score);
    const v40 = cvssScore(c.V40Score);
    if (v2) out.push({ score: v2, version: '2.0' });
    if (v3) out.push({ score: v3, version: /^CVSS:(3\.[01])\//.exec(str(c.V3Vector, `${where}.${source}.V3Vector`))?.[1] ?? '3.0' });
    if (v40) out.push({ score: v40, version: '4.0' });
  }
  return out;
}
