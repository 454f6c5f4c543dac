// What every IAM v1 List shares. v1 lists have no paging: each walks its v2
// twin's pages (same visibility, filters and order) and answers the whole
// result in one `items` list, up to a bound; past it the caller is told to
// narrow the list or use v2, rather than given a silently cut list. A filter
// on `id` is the v2 uidp.ids filter, so a missing resource is an empty list.
import { clone, create } from '@bufbuild/protobuf';
import { UIDPFilterSchema, type UIDPFilter } from '../../gen/berth/common/v2/uidp_pb.js';
import { isValidUid } from '../../core/uidp.js';
import { MAX_PAGE_SIZE } from '../../list/list-params.js';
import { badIamRequest, tooManyForV1 } from '../errors.js';

export const MAX_V1_ITEMS = 1000;

/** One v2 page: its items (already in v1 shape) and the token of the next page ('' on the last). */
export type V1Page<T> = (pageSize: number, pageToken: string) => Promise<[items: T[], nextPageToken: string]>;

/** Every item of the v2 list, in its order; `v2Path` names the paged route the error points to. */
export async function allItems<T>(v2Path: string, page: V1Page<T>): Promise<T[]> {
  const items: T[] = [];
  let token = '';
  for (;;) {
    const [got, next] = await page(MAX_PAGE_SIZE, token);
    items.push(...got);
    if (next === '') return items;
    if (items.length >= MAX_V1_ITEMS) throw tooManyForV1(MAX_V1_ITEMS, v2Path);
    token = next;
  }
}

/** Checks a uid-valued v1 filter field (`id`, `parent`, `group`); '' means not filtered. */
export function checkUidFilter(field: string, value: string): void {
  if (value !== '' && !isValidUid(value)) throw badIamRequest([{ field, description: `"${value.slice(0, 80)}" is not a valid uid` }]);
}

/**
 * The uidp filter narrowed to exactly `ids` (v1's `id` or `group`); null when
 * nothing can match (the uidp filter already names other ids).
 */
export function narrowToId(uidp: UIDPFilter | undefined, field: string, id: string): UIDPFilter | undefined | null {
  checkUidFilter(field, id);
  if (id === '') return uidp;
  if (uidp && uidp.ids.length > 0 && !uidp.ids.includes(id)) return null;
  return uidpWith(uidp, { ids: [id] });
}

/** A filter of exactly `id` (checked as `field`); undefined when `id` is ''. */
export function idFilter(field: string, id: string): UIDPFilter | undefined {
  checkUidFilter(field, id);
  return id === '' ? undefined : create(UIDPFilterSchema, { ids: [id] });
}

/** `uidp` (or an empty filter) with `changes` applied. */
export function uidpWith(uidp: UIDPFilter | undefined, changes: Partial<Pick<UIDPFilter, 'ids' | 'childrenOf'>>): UIDPFilter {
  return Object.assign(uidp ? clone(UIDPFilterSchema, uidp) : create(UIDPFilterSchema), changes);
}
