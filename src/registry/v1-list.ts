// What the v1 ListRepos and ListTags share: v1 has no paging, so a v1 list
// walks the v2 list's pages (the same filters, scopes and order) up to a
// bound and answers them all at once; past the bound the caller is told to
// narrow the list or use v2, rather than given a silently cut list. The v1
// `id` filter is the v2 uidp.ids filter narrowed to that one uid.
import { create } from '@bufbuild/protobuf';
import { UIDPFilterSchema, type UIDPFilter } from '../gen/berth/common/v2/uidp_pb.js';
import { isValidUid } from '../core/uidp.js';
import { MAX_PAGE_SIZE } from '../list/list-params.js';
import { badRegistryRequest, tooManyForV1 } from './errors.js';

/**
 * The uidp filter with `id` added to it; undefined when they exclude each
 * other (the list is empty). INVALID_ARGUMENT for an id that is not a uid.
 */
export function withId(uidp: UIDPFilter | undefined, id: string): UIDPFilter | undefined | 'none' {
  if (id === '') return uidp;
  if (!isValidUid(id)) throw badRegistryRequest([{ field: 'id', description: `"${id.slice(0, 80)}" is not a valid uid` }]);
  const ids = uidp?.ids ?? [];
  if (ids.length > 0 && !ids.includes(id)) return 'none';
  return uidp ? { ...uidp, ids: [id] } : create(UIDPFilterSchema, { ids: [id] });
}

/** Every item of the pages `page` returns, in order; TOO_MANY_RESULTS past `max`. */
export async function allPages<T>(
  what: 'repos' | 'tags',
  max: number,
  page: (pageSize: number, pageToken: string) => Promise<{ items: T[]; next: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let token = '';
  for (;;) {
    const p = await page(MAX_PAGE_SIZE, token);
    items.push(...p.items);
    // Past the bound by a row, not by a full last page: exactly `max` is an answer.
    if (items.length > max) throw tooManyForV1(what, max);
    if (p.next === '') return items;
    token = p.next;
  }
}
