// Checks a VulnCountReportFilter and turns it into what the count reports
// read: (repo name, tag or every tag) pairs and the UTC days of the range.
// from and to default to the 30 days ending today; the range is at most
// MAX_DAYS days. references, when given, replace repo and tag.
import type { FieldViolation } from '../../core/api-error.js';
import type { VulnCountReportFilter } from '../../gen/berth/registry/v1/vulnerabilities_pb.js';
import { dayOf, daysFrom, MAX_DAYS, today } from '../tag-days/utc-days.js';
import { badVulnCountRequest } from './vuln-count-errors.js';

export const MAX_REFERENCES = 100;
/** Days of the range when from is not given. */
export const DEFAULT_DAYS = 30;
const MAX_NAME = 256;
const MAX_TAG = 128;

export interface CountTarget {
  repo: string;
  /** Empty: every tag of the repo. */
  tag: string;
}

export interface CountFilter {
  targets: CountTarget[];
  days: number[];
}

function checkTarget(t: CountTarget, at: string, out: FieldViolation[]): void {
  if (t.repo === '') out.push({ field: `${at}repo`, description: 'a repo name is required' });
  if (t.repo.length > MAX_NAME || t.repo.includes('\u0000')) out.push({ field: `${at}repo`, description: `at most ${MAX_NAME} characters, no NUL` });
  if (t.tag.length > MAX_TAG || t.tag.includes('\u0000')) out.push({ field: `${at}tag`, description: `at most ${MAX_TAG} characters, no NUL` });
}

export function countFilterOf(req: VulnCountReportFilter, now = Date.now()): CountFilter {
  const out: FieldViolation[] = [];
  let targets: CountTarget[];
  if (req.references.length > 0) {
    if (req.references.length > MAX_REFERENCES) out.push({ field: 'references', description: `at most ${MAX_REFERENCES}` });
    targets = req.references.slice(0, MAX_REFERENCES).map((r) => ({ repo: r.repo, tag: r.tag }));
    for (const [i, t] of targets.entries()) checkTarget(t, `references[${i}].`, out);
  } else {
    targets = [{ repo: req.repo, tag: req.tag }];
    checkTarget(targets[0], '', out);
  }
  const last = req.to ? dayOf(req.to) : today(now);
  const first = req.from ? dayOf(req.from) : last === undefined ? undefined : last - (DEFAULT_DAYS - 1);
  if (last === undefined) out.push({ field: 'to', description: 'outside years 1 to 9999' });
  if (first === undefined && req.from) out.push({ field: 'from', description: 'outside years 1 to 9999' });
  if (first !== undefined && last !== undefined) {
    if (first > last) out.push({ field: 'from', description: 'after to' });
    else if (last - first + 1 > MAX_DAYS) out.push({ field: 'to', description: `the range covers at most ${MAX_DAYS} days` });
  }
  if (out.length > 0) throw badVulnCountRequest(out);
  const seen = new Set<string>();
  targets = targets.filter((t) => {
    const key = `${t.repo}\u0000${t.tag}`;
    const fresh = !seen.has(key);
    seen.add(key);
    return fresh;
  });
  return { targets, days: daysFrom(first as number, last as number) };
}
