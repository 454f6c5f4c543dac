// Bytes → the JSON object of a scanner report, through the advisory
// importers' bounded reader (size, UTF-8, nesting, NUL, string length), with
// its complaint turned into a ScannerReportError.
import { parseJsonBytes } from '../../vulnerabilities/import/json-input.js';
import { ImportError } from '../../vulnerabilities/import/normalized-advisory.js';
import { isObject, type JsonObject, type JsonValue } from './report-fields.js';
import { ScannerReportError } from './scanner-report.js';

export function readReportJson(bytes: Uint8Array): JsonObject {
  let value: JsonValue;
  try {
    value = parseJsonBytes('report', bytes);
  } catch (err) {
    if (err instanceof ImportError) throw new ScannerReportError(err.message);
    throw err;
  }
  if (!isObject(value)) throw new ScannerReportError('report: must be a JSON object');
  return value;
}
