// What every v1 List shares (IAM, registry, events). v1 lists have no paging:
// each walks its v2 twin's pages (the same visibility, filters and order) and
// answers the whole result in one `items` list, up to a bound; past it the
// caller is told to narrow the list or use v2, rather than given a silently
// cut list. A v1 `id` filter is v2's uidp.ids, so a missing resource is an
// empty list.
import { clone, create } from '@bufbuild/protobuf';
import { UIDPFilterSchema, type UIDPFilter } from '../gen/berth/common/v2/uidp_pb.js';
import { badListRequest, tooManyForV1 } from '../core/request-errors.js';
import { isValidUid } from '../core/uidp.js';
import { MAX_PAGE_SIZE } from './list-params.js';

export const MAX_V1_ITEMS = 1000;

/** Which v1 list: its error domain, what it lists (for the error) and the v2 route that pages. */
export interface V1List {
  domain: string;
  what: string;
  v2Path: string;
  /** The bound; MAX_V1_ITEMS unless said. */
  max?: number;
}

/** One v2 page: its items (already in v1 shape) and the token of the next page ('' on the last). */
export type V1Page<T> = (pageSize: number, pageToken: string) => Promise<[items: T[], nextPageToken: string]>;

/** Every item of the v2 list, in its order; TOO_MANY_RESULTS past the bound. */
export async function allItems<T>(list: V1List, page: V1Page<T>): Promise<T[]> {
  const max = list.max ?? MAX_V1_ITEMS;
  const items: T[] = [];
  let token = '';
  for (;;) {
    const [got, next] = await page(MAX_PAGE_SIZE, token);
    items.push(...got);
    // Past the bound by an item, not by a full last page: exactly `max` is an answer.
    if (items.length > max) throw tooManyForV1(list.domain, max, list.what, list.v2Path);
    if (next === '') return items;
    token = next;
  }
}

/** Checks a uid-valued v1 filter field (`id`, `parent`, `group`); '' means not filtered. */
export function checkUidFilter(domain: string, field: string, value: string): void {
  if (value !== '' && !isValidUid(value)) throw badListRequest(domain, [{ field, description: `"${value.slice(0, 80)}" is not a valid uid` }]);
}

/**
 * The uidp filter narrowed to exactly `id` (v1's `id` or `group`, checked as
 * `field`); null when nothing can match (the uidp filter already names other ids).
 */
export function narrowToId(domain: string, uidp: UIDPFilter | undefined, field: string, id: string): UIDPFilter | undefined | null {
  checkUidFilter(domain, field, id);
  if (id === '') return uidp;
  if (uidp && uidp.ids.length > 0 && !uidp.ids.includes(id)) return null;
  return uidpWith(uidp, { ids: [id] });
}

/** A filter of exactly `id` (checked as `field`); undefined when `id` is ''. */
export function idFilter(domain: string, field: string, id: string): UIDPFilter | undefined {
  checkUidFilter(domain, field, id);
  return id === '' ? undefined : create(UIDPFilterSchema, { ids: [id] });
}

/** `uidp` (or an empty filter) with `changes` applied. */
export function uidpWith(uidp: UIDPFilter | undefined, changes: Partial<Pick<UIDPFilter, 'ids' | 'childrenOf'>>): UIDPFilter {
  return Object.assign(uidp ? clone(UIDPFilterSchema, uidp) : create(UIDPFilterSchema), changes);
}
