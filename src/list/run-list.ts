// The shared half of every v2 List RPC: validates the list parameters and
// (for resources scoped by group) the uidp filter, then runs one keyset page.
// Services add their own filters. A table not scoped by group (no uid column)
// names its unique key column and lists with visibility 'all' and no uidp.
import type { UIDPFilter } from '../gen/berth/common/v2/uidp_pb.js';
import type { FieldViolation } from '../core/api-error.js';
import { badListRequest } from '../core/request-errors.js';
import { fingerprint, pageSizeOf, parseOrderBy, skipOf, type Order } from './list-params.js';
import type { PageTokens } from './page-token.js';
import { ancestorsOf, isValidUid } from '../core/uidp.js';
import { listPage, type Page, type UidScope, type Visibility } from './keyset-page.js';
import { equal, isNull, oneOf, type Condition } from './conditions.js';
import type { TableVersions } from '../store/table-versions.js';
import type { ListTotals } from './list-totals.js';
import type { Database } from '../store/database.js';
import type { Store } from '../store/store.js';

export interface ListSpec {
  table: keyof Database & string;
  /** ErrorInfo domain, e.g. "iam.berth.dev". */
  domain: string;
  /** API sort field → column; must include the key column's field. */
  columns: Readonly<Record<string, string>>;
  /** Unique column that breaks ties and anchors the cursor; "uid" unless given. */
  key?: string;
  defaultOrder: Order;
  /** Columns a list reads; all when absent. */
  select?: readonly string[];
}

export interface ListParams {
  uidp?: UIDPFilter;
  pageSize: number;
  pageToken: string;
  orderBy: string;
  skip: number;
}

export interface ListDeps {
  store: Store;
  pageTokens: PageTokens;
  counts: ListTotals;
}

const MAX_IDS = 1000;

function uidpConditions(f: UIDPFilter | undefined, violations: FieldViolation[]): Condition[] {
  if (!f) return [];
  const out: Condition[] = [];
  const check = (field: string, uid: string) => {
    if (!isValidUid(uid)) violations.push({ field: `uidp.${field}`, description: `"${uid.slice(0, 80)}" is not a valid uid` });
  };
  if (f.childrenOf) {
    check('children_of', f.childrenOf);
    out.push(equal('parent_uid', f.childrenOf));
  }
  // descendants_of is a UidScope (see scopesOf), so lists can pick their index.
  if (f.ancestorsOf) {
    check('ancestors_of', f.ancestorsOf);
    out.push(oneOf('uid', ancestorsOf(f.ancestorsOf)));
  }
  if (f.inRoot) out.push(isNull('parent_uid'));
  if (f.ids.length > 0) {
    if (f.ids.length > MAX_IDS) violations.push({ field: 'uidp.ids', description: `at most ${MAX_IDS} ids` });
    for (const id of f.ids) check('ids', id);
    out.push(oneOf('uid', f.ids));
  }
  return out;
}

export async function runList<Row>(
  deps: ListDeps,
  spec: ListSpec,
  params: ListParams,
  filters: { conditions: Condition[]; key: unknown; violations?: FieldViolation[]; knownTotal?: number },
  visible: Visibility,
  /** The request's snapshot of table versions (the caller's), so the total's cache needs no read of its own. */
  versions?: TableVersions,
): Promise<Page<Row>> {
  const violations: FieldViolation[] = [...(filters.violations ?? [])];
  const pageSize = pageSizeOf(params.pageSize);
  const skip = skipOf(params.skip);
  const order = parseOrderBy(params.orderBy, Object.keys(spec.columns), spec.defaultOrder);
  if (typeof pageSize !== 'number') violations.push(pageSize);
  if (typeof skip !== 'number') violations.push(skip);
  if (!('desc' in order)) violations.push(order);
  const conditions = [...uidpConditions(params.uidp, violations), ...filters.conditions];
  if (violations.length > 0 || typeof pageSize !== 'number' || typeof skip !== 'number' || !('desc' in order)) {
    throw badListRequest(spec.domain, violations);
  }
  const u = params.uidp;
  const key = {
    t: spec.table,
    o: `${order.field} ${order.desc ? 'desc' : 'asc'}`,
    u: u ? [u.ancestorsOf, u.descendantsOf, u.childrenOf, u.inRoot, u.ids] : null,
    f: filters.key,
  };
  const scopes: UidScope[] = [];
  if (visible !== 'all') scopes.push({ uids: visible, self: true });
  if (u?.descendantsOf) {
    if (!isValidUid(u.descendantsOf))
      throw badListRequest(spec.domain, [{ field: 'uidp.descendants_of', description: `"${u.descendantsOf.slice(0, 80)}" is not a valid uid` }]);
    scopes.push({ uids: [u.descendantsOf], self: false });
  }
  const page = await listPage<Row>(deps.store, deps.pageTokens, deps.counts, {
    table: spec.table,
    columns: spec.columns,
    key: spec.key,
    order,
    conditions,
    select: spec.select,
    scopes,
    pageSize,
    skip,
    pageToken: params.pageToken,
    fingerprint: fingerprint(key),
    versions,
    knownTotal: filters.knownTotal,
  });
  if ('invalid' in page) throw badListRequest(spec.domain, [{ field: 'page_token', description: page.invalid }]);
  return page;
}
