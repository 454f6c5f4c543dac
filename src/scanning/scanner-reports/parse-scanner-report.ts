// Any scanner report Berth accepts, its format told from its content: Grype
// JSON (descriptor.name "grype"), Trivy JSON (SchemaVersion + Results), or
// either inside Trivy's cosign-vuln predicate
// (https://cosign.sigstore.dev/attestation/vuln/v1: scanner.result holds the
// whole report), bare, in an in-toto statement, or in a DSSE envelope.
import { grypeFromDocument, isGrypeReport } from './grype-report.js';
import { isObject, type JsonObject } from './report-fields.js';
import { readReportJson } from './report-json.js';
import { type ScannerReport, ScannerReportError } from './scanner-report.js';
import { isTrivyReport, trivyFromDocument } from './trivy-report.js';

export const COSIGN_VULN_PREDICATE = 'https://cosign.sigstore.dev/attestation/vuln/v1';

export function parseScannerReport(bytes: Uint8Array): ScannerReport {
  const doc = unwrap(readReportJson(bytes));
  if (isGrypeReport(doc)) return grypeFromDocument(doc);
  if (isTrivyReport(doc)) return trivyFromDocument(doc);
  throw new ScannerReportError('report: neither Grype JSON (descriptor.name "grype") nor Trivy JSON (SchemaVersion and Results)');
}

function unwrap(doc: JsonObject): JsonObject {
  let d = doc;
  // A DSSE envelope: the statement is the base64 payload (its size is bounded by the envelope's).
  if (typeof d.payload === 'string' && typeof d.payloadType === 'string') {
    d = readReportJson(Buffer.from(d.payload, 'base64'));
  }
  if (d.predicateType === COSIGN_VULN_PREDICATE && isObject(d.predicate)) d = d.predicate;
  const scanner = d.scanner;
  if (isObject(scanner) && isObject(scanner.result) && isObject(d.invocation ?? d.metadata ?? null)) return scanner.result;
  return d;
}
