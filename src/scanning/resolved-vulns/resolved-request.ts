// Checks a resolved vulnerability request (the v2 and the v1 message have
// the same fields) and turns it into (repo name, tags) pairs and UTC days.
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { FieldViolation } from '../../core/api-error.js';
import { dayOf, daysFrom, MAX_DAYS } from '../tag-days/utc-days.js';
import { badResolvedVulnsRequest } from './resolved-vulns-errors.js';

export const MAX_IMAGE_REFS = 100;
/** (repo name, tag) pairs over all image_refs. */
export const MAX_TAGS = 200;
const MAX_NAME = 256;
const MAX_TAG = 128;
export const DEFAULT_TAG = 'latest';

export interface ResolvedRequestFields {
  imageRefs: { repo: string; tags: string[] }[];
  startTime?: Timestamp;
  endTime?: Timestamp;
}

export interface ResolvedRequest {
  refs: { repo: string; tag: string }[];
  days: number[];
}

const bad = (s: string, max: number) => s.length > max || s.includes('\u0000');

export function resolvedRequestOf(req: ResolvedRequestFields): ResolvedRequest {
  const out: FieldViolation[] = [];
  if (req.imageRefs.length === 0) out.push({ field: 'image_refs', description: 'at least one image ref is required' });
  if (req.imageRefs.length > MAX_IMAGE_REFS) out.push({ field: 'image_refs', description: `at most ${MAX_IMAGE_REFS}` });
  const refs: ResolvedRequest['refs'] = [];
  const seen = new Set<string>();
  req.imageRefs.slice(0, MAX_IMAGE_REFS).forEach((r, i) => {
    if (r.repo === '' || bad(r.repo, MAX_NAME)) out.push({ field: `image_refs[${i}].repo`, description: `a repo name of 1 to ${MAX_NAME} characters, no NUL` });
    const tags = r.tags.length === 0 ? [DEFAULT_TAG] : r.tags;
    for (const tag of tags) {
      if (tag === '' || bad(tag, MAX_TAG)) out.push({ field: `image_refs[${i}].tags`, description: `each tag 1 to ${MAX_TAG} characters, no NUL` });
      const key = `${r.repo}\u0000${tag}`;
      if (!seen.has(key)) {
        seen.add(key);
        refs.push({ repo: r.repo, tag });
      }
    }
  });
  if (refs.length > MAX_TAGS) out.push({ field: 'image_refs', description: `at most ${MAX_TAGS} repo and tag pairs` });
  const first = req.startTime ? dayOf(req.startTime) : undefined;
  const last = req.endTime ? dayOf(req.endTime) : undefined;
  if (!req.startTime) out.push({ field: 'start_time', description: 'required' });
  else if (first === undefined) out.push({ field: 'start_time', description: 'outside years 1 to 9999' });
  if (!req.endTime) out.push({ field: 'end_time', description: 'required' });
  else if (last === undefined) out.push({ field: 'end_time', description: 'outside years 1 to 9999' });
  if (first !== undefined && last !== undefined) {
    if (first > last) out.push({ field: 'start_time', description: 'after end_time' });
    else if (last - first + 1 > MAX_DAYS) out.push({ field: 'end_time', description: `the range covers at most ${MAX_DAYS} days` });
  }
  if (out.length > 0) throw badResolvedVulnsRequest(out);
  return { refs, days: daysFrom(first as number, last as number) };
}
