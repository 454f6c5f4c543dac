// Berth's own reports stored by package (migration 0033): a BERTH row of
// vuln_reports written by storeBerthReport keeps '' in `vulnerabilities`;
// its text is `[` + its parts' texts in package order joined by `,` + `]`,
// byte for byte what JSON.stringify of the whole match list gives. A splice
// after an advisory change (reports/report-splice.ts) rewrites only the
// changed packages' parts, and the report's digest is a digest of the parts'
// digests, so it is computed without the unchanged parts' bytes.
// Rows written before parts (whole text in the column) read as they are.
import { createHash } from 'node:crypto';
import type { Executor } from '../../store/transact.js';
import { statementChunks } from '../../store/statement-chunks.js';

export interface BerthReportPartsTable {
  report_id: number;
  package_index: number;
  /** The package's matches as JSON objects, comma-joined as inside the report's array. */
  text: string;
  /** sha256 hex of text. */
  digest: string;
  /** JSON of the matches' [id, severity] pairs: what a report's event needs, without the text. */
  matches: string;
}

declare module '../../store/database.js' {
  interface Database {
    berth_report_parts: BerthReportPartsTable;
  }
}

/** One package's matches in a report. */
export interface BerthReportPart {
  packageIndex: number;
  text: string;
  /** sha256 hex of text. */
  digest: string;
  /** JSON of [id, severity][]. */
  matches: string;
}

export const partDigest = (text: string) => createHash('sha256').update(text).digest('hex');

/** A report's digest from its parts' (package index, digest) pairs, in package order. */
export function reportDigest(parts: Iterable<Pick<BerthReportPart, 'packageIndex' | 'digest'>>): string {
  let text = ''; // hashed at once: one native call instead of one per part
  for (const p of parts) text += `${p.packageIndex} ${p.digest}\n`;
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A report's text from its parts' texts, in package order. */
export const assembleText = (texts: readonly string[]) => `[${texts.join(',')}]`;

/** The report rows a reader has: BERTH rows with '' are assembled from their parts. */
export interface ReportTextRow {
  id: number | string;
  scanner_name?: string;
  vulnerabilities: string;
}

/** Whether the row's text is in its parts (a BERTH row written by parts). */
export const storedInParts = (row: Pick<ReportTextRow, 'scanner_name' | 'vulnerabilities'>) =>
  row.vulnerabilities === '' && (row.scanner_name === undefined || row.scanner_name === 'BERTH');

/**
 * The text of each row (JSON array of its matches), in the rows' order: the
 * column for scanner rows and old BERTH rows, the parts for the others —
 * read in one query per chunk of reports, not one per report.
 */
export async function reportTexts(ex: Executor, rows: readonly ReportTextRow[]): Promise<string[]> {
  const ids = rows.filter(storedInParts).map((r) => Number(r.id));
  const texts = new Map<number, string[]>();
  for (const chunk of statementChunks(ids)) {
    const parts = await ex
      .selectFrom('berth_report_parts')
      .select(['report_id', 'text'])
      .where('report_id', 'in', chunk)
      .orderBy('report_id')
      .orderBy('package_index')
      .execute();
    for (const p of parts) {
      const id = Number(p.report_id);
      const list = texts.get(id);
      if (list) list.push(p.text);
      else texts.set(id, [p.text]);
    }
  }
  return rows.map((r) => (storedInParts(r) ? assembleText(texts.get(Number(r.id)) ?? []) : r.vulnerabilities));
}

/** One row's text (reportTexts for a single report). */
export async function reportText(ex: Executor, row: ReportTextRow): Promise<string> {
  return (await reportTexts(ex, [row]))[0];
}
