// The stored text of Berth's report read and changed without parsing it: a
// splice after an advisory change (report-splice.ts) costs what the changed
// packages' matches cost, not what the whole report does. The text is the
// JSON array berth-report.ts writes, each match an object that begins
// {"packageIndex":N,"id":"…","severity":"…" in matching's order. In JSON
// text a quote inside a string is always escaped (\"), so `{"packageIndex":`
// occurs only where a match begins; each match runs to the next one's comma
// or the closing bracket. Text in any other form (a report written before
// this form) reads as undefined, and its image is matched whole instead.
import type { ReportSeverity } from '../scanner-reports/scanner-report.js';
import { type BerthVulnerability, matchOrder } from './berth-report.js';

export interface MatchSpan {
  /** Where the match's object begins and ends in the text. */
  start: number;
  end: number;
  packageIndex: number;
  id: string;
  severity: ReportSeverity;
}

const MARK = '{"packageIndex":';
const HEAD = /\{"packageIndex":(\d+),"id":("(?:[^"\\]|\\.)*"),"severity":"(UNKNOWN|NEGLIGIBLE|LOW|MEDIUM|HIGH|CRITICAL)"/y;

/** The matches of a stored report's text, in order; undefined for text not in this form. */
export function matchSpans(text: string): MatchSpan[] | undefined {
  if (text === '[]') return [];
  if (!text.startsWith(`[${MARK}`) || !text.endsWith('}]')) return undefined;
  const spans: MatchSpan[] = [];
  let start = 1;
  while (start > 0) {
    HEAD.lastIndex = start;
    const m = HEAD.exec(text);
    if (!m) return undefined;
    const next = text.indexOf(`,${MARK}`, HEAD.lastIndex);
    const end = next < 0 ? text.length - 1 : next;
    spans.push({ start, end, packageIndex: Number(m[1]), id: JSON.parse(m[2]) as string, severity: m[3] as ReportSeverity });
    start = next < 0 ? -1 : next + 1;
  }
  return spans;
}

export interface SplicedText {
  text: string;
  /** The matches of the new text: ids and severities, for its event. */
  matches: Pick<MatchSpan, 'id' | 'severity'>[];
}

/**
 * The text with every match of the packages in `replaced` taken out and
 * `added` (their new matches, in report order) put in their places: the same
 * text as the whole report written anew.
 */
export function spliceText(text: string, spans: readonly MatchSpan[], replaced: ReadonlySet<number>, added: readonly BerthVulnerability[]): SplicedText {
  const parts: string[] = [];
  const matches: Pick<MatchSpan, 'id' | 'severity'>[] = [];
  let a = 0;
  const put = (v: BerthVulnerability) => {
    parts.push(JSON.stringify(v));
    matches.push({ id: v.id, severity: v.severity });
  };
  for (const s of spans) {
    if (replaced.has(s.packageIndex)) continue;
    while (a < added.length && matchOrder(added[a], s) < 0) put(added[a++]);
    parts.push(text.slice(s.start, s.end));
    matches.push({ id: s.id, severity: s.severity });
  }
  while (a < added.length) put(added[a++]);
  return { text: `[${parts.join(',')}]`, matches };
}
