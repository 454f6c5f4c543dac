// Walks a v2 List endpoint page by page, following nextPageToken to the end,
// bounded so a runaway listing cannot eat the terminal or memory.
import type { ApiClient, Query } from './api-client.js';

export const MAX_ITEMS = 10_000;
const MAX_PAGE_SIZE = 200;

/** 200 (the API's maximum) unless BERTH_PAGE_SIZE asks for smaller pages. */
function pageSize(): number {
  const n = Number(process.env.BERTH_PAGE_SIZE);
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE ? n : MAX_PAGE_SIZE;
}

export async function listAll<T>(client: ApiClient, path: string, itemsKey: string, query: Query = {}, limit = MAX_ITEMS): Promise<T[]> {
  const items: T[] = [];
  let pageToken: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const page = await client.call<Record<string, unknown>>('GET', path, {
      query: { ...query, page_size: pageSize(), page_token: pageToken },
    });
    const batch = (page[itemsKey] as T[] | undefined) ?? [];
    items.push(...batch);
    if (items.length >= limit) {
      const more = items.length > limit || Boolean(page.nextPageToken);
      if (more) process.stderr.write(`berth: warning: stopped after ${limit} items; narrow the listing to see the rest\n`);
      return items.slice(0, limit);
    }
    const next = page.nextPageToken;
    if (typeof next !== 'string' || next === '' || seen.has(next)) return items;
    seen.add(next);
    pageToken = next;
  }
}
