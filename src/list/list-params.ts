// The list parameters every v2 List shares: page_size, order_by, skip.
import { hash } from 'node:crypto';
import { setRecent } from '../core/recent-map.js';
import type { FieldViolation } from '../core/api-error.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface Order {
  /** API field name, e.g. "name" or "created_at". */
  field: string;
  desc: boolean;
}

export function pageSizeOf(requested: number): number | FieldViolation {
  if (requested < 0) return { field: 'page_size', description: 'page_size must not be negative' };
  if (requested === 0) return DEFAULT_PAGE_SIZE;
  return Math.min(requested, MAX_PAGE_SIZE);
}

export function skipOf(requested: number): number | FieldViolation {
  if (requested < 0) return { field: 'skip', description: 'skip must not be negative' };
  return requested;
}

/** Parses "field [asc|desc]" against the sortable fields of a resource. */
export function parseOrderBy(orderBy: string, sortable: readonly string[], fallback: Order): Order | FieldViolation {
  const text = orderBy.trim();
  if (text === '') return fallback;
  const parts = text.split(/\s+/);
  const field = parts[0];
  const dir = (parts[1] ?? 'asc').toLowerCase();
  const bad = (description: string): FieldViolation => ({ field: 'order_by', description });
  if (parts.length > 2 || (dir !== 'asc' && dir !== 'desc')) {
    return bad('order_by must be "field", "field asc" or "field desc"');
  }
  if (!sortable.includes(field)) {
    return bad(`cannot order by "${field.slice(0, 64)}"; sortable fields: ${sortable.join(', ')}`);
  }
  return { field, desc: dir === 'desc' };
}

// The digests of recent query texts: a list asked again (the same query,
// another page or another caller) is not hashed again. Short texts only, so
// the cache stays small whatever the filters.
const recentFingerprints = new Map<string, string>();
const REMEMBERED_TEXT = 512;
const REMEMBERED_FINGERPRINTS = 1024;

/** A stable digest of what defines a query (not its page size or skip). One-shot hash: no Hash object per list. */
export function fingerprint(parts: unknown): string {
  const text = JSON.stringify(parts);
  let digest = recentFingerprints.get(text);
  if (digest === undefined) {
    digest = hash('sha256', text, 'base64url').slice(0, 22);
    if (text.length <= REMEMBERED_TEXT) setRecent(recentFingerprints, text, digest, REMEMBERED_FINGERPRINTS);
  }
  return digest;
}
