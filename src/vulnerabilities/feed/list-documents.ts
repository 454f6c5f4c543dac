// ListDocuments: the feed's advisories as documents, one per origin package,
// each advisory once per CGA id (an id has a row per subpackage, architecture
// and component: their aliases are merged and their approved events merged
// by content, oldest first). Only what imports wrote into the feed group is
// read (feed-group.ts), not the advisories created there through the API. The
// RPC has no paging, so it is bounded: `id` or `cves` is required (the whole
// feed is what one imports, not what one lists), and a request matching more
// than MAX_ROWS advisory rows or MAX_EVENTS approved events is refused.
// Advisories with no approved event (nothing published yet) are left out.
import { create } from '@bufbuild/protobuf';
import type { FieldViolation } from '../../core/api-error.js';
import {
  type DocumentAdvisory,
  DocumentSchema,
  type ListDocumentsRequest,
  type ListDocumentsResponse,
  ListDocumentsResponseSchema,
  DocumentAdvisorySchema,
  type DocumentEvent,
} from '../../gen/berth/advisory/v2/advisory_pb.js';
import { EventTypeFilter, ReviewState } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import type { Store } from '../../store/store.js';
import { badDocumentsRequest, tooManyDocumentAdvisories } from '../errors.js';
import { documentEvent } from './document-event.js';
import { feedGroup } from './feed-group.js';
import { API_SOURCE } from '../advisory-rows.js';
import { statementChunks } from '../../store/statement-chunks.js';

export const MAX_CVES = 1000;
export const MAX_VALUE_LENGTH = 256;
/** Advisory rows one request may match (an origin package with every subpackage, architecture and component). */
export const MAX_ROWS = 10_000;
/** Approved events those rows may hold, before merging. */
export const MAX_EVENTS = 50_000;

interface Filter {
  id: string;
  cves: string[];
}

function filterOf(req: ListDocumentsRequest): Filter {
  const violations: FieldViolation[] = [];
  const cves = [...new Set(req.cves)];
  if (req.id === '' && cves.length === 0) {
    violations.push({ field: 'id', description: 'id (an origin package) or cves is required: the feed is too large to list whole' });
  }
  if (req.id.length > MAX_VALUE_LENGTH) violations.push({ field: 'id', description: `id must be at most ${MAX_VALUE_LENGTH} characters` });
  if (cves.length > MAX_CVES) violations.push({ field: 'cves', description: `at most ${MAX_CVES} distinct cves` });
  else if (cves.some((c) => c === '' || c.length > MAX_VALUE_LENGTH)) {
    violations.push({ field: 'cves', description: `each cve must be 1 to ${MAX_VALUE_LENGTH} characters` });
  }
  if (violations.length > 0) throw badDocumentsRequest(violations);
  return { id: req.id, cves };
}

interface Merged {
  aliases: Set<string>;
  namespace: string;
  uids: string[];
}

/** The matching advisory rows, merged per origin and CGA id (both in order). */
async function mergedAdvisories(store: Store, group: string, f: Filter): Promise<Map<string, Map<string, Merged>>> {
  let q = store.db
    .selectFrom('advisories')
    .select(['uid', 'origin', 'advisory_id', 'aliases', 'package_namespace'])
    .where('parent_uid', '=', group)
    .where('source', '!=', API_SOURCE);
  if (f.id !== '') q = q.where('origin', '=', f.id);
  if (f.cves.length > 0) {
    const cves = f.cves;
    q = q.where((eb) => eb('uid', 'in', eb.selectFrom('advisory_aliases').select('advisory_uid').where('alias', 'in', cves)));
  }
  const rows = await q
    .orderBy('origin')
    .orderBy('advisory_id')
    .orderBy('uid')
    .limit(MAX_ROWS + 1)
    .execute();
  if (rows.length > MAX_ROWS) throw tooManyDocumentAdvisories('advisory rows', MAX_ROWS);
  const out = new Map<string, Map<string, Merged>>();
  for (const r of rows) {
    const doc = out.get(r.origin) ?? new Map<string, Merged>();
    out.set(r.origin, doc);
    const a = doc.get(r.advisory_id) ?? { aliases: new Set<string>(), namespace: '', uids: [] };
    doc.set(r.advisory_id, a);
    for (const alias of JSON.parse(r.aliases) as string[]) a.aliases.add(alias);
    if (a.namespace === '') a.namespace = r.package_namespace;
    a.uids.push(r.uid);
  }
  return out;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface EventRow {
  advisory_uid: string;
  create_time: string;
  content_hash: string;
  data: string;
}

/** The approved events (no patched ones: the feed has no such case) of these advisories, by advisory uid. */
async function approvedEvents(store: Store, uids: readonly string[]): Promise<Map<string, EventRow[]>> {
  const out = new Map<string, EventRow[]>();
  let seen = 0;
  for (const part of statementChunks(uids)) {
    const rows = await store.db
      .selectFrom('advisory_events')
      .select(['advisory_uid', 'create_time', 'content_hash', 'data'])
      .where('advisory_uid', 'in', part)
      .where('review_state', '=', ReviewState.APPROVED)
      .where('type', '<>', EventTypeFilter.PATCHED)
      .limit(MAX_EVENTS + 1 - seen)
      .execute();
    seen += rows.length;
    if (seen > MAX_EVENTS) throw tooManyDocumentAdvisories('approved events', MAX_EVENTS);
    for (const r of rows) {
      const list = out.get(r.advisory_uid);
      if (list) list.push(r);
      else out.set(r.advisory_uid, [r]);
    }
  }
  return out;
}

/** One CGA id's events: its rows' events merged by content, oldest first (ties by content hash, so the order is stable). */
function mergedEvents(a: Merged, events: Map<string, EventRow[]>): DocumentEvent[] {
  const byHash = new Map<string, EventRow>();
  for (const uid of a.uids) for (const e of events.get(uid) ?? []) if (!byHash.has(e.content_hash)) byHash.set(e.content_hash, e);
  const ordered = [...byHash.values()].sort((x, y) => byText(x.create_time, y.create_time) || byText(x.content_hash, y.content_hash));
  return ordered.flatMap((e) => documentEvent(e.data, e.create_time) ?? []);
}

export async function listDocuments(store: Store, req: ListDocumentsRequest): Promise<ListDocumentsResponse> {
  const filter = filterOf(req);
  const group = await feedGroup(store);
  if (group === undefined) return create(ListDocumentsResponseSchema, {});
  const docs = await mergedAdvisories(store, group, filter);
  const events = await approvedEvents(
    store,
    [...docs.values()].flatMap((d) => [...d.values()].flatMap((a) => a.uids)),
  );
  // An advisory nobody approved anything on is not published yet; a package with none such has no document.
  const documents = [...docs].flatMap(([origin, merged]) => {
    const advisories = [...merged].flatMap(([advisoryId, a]): DocumentAdvisory[] => {
      const evs = mergedEvents(a, events);
      if (evs.length === 0) return [];
      return [create(DocumentAdvisorySchema, { id: advisoryId, aliases: [...a.aliases].sort(), packageNamespace: a.namespace, events: evs })];
    });
    return advisories.length === 0 ? [] : [create(DocumentSchema, { id: origin, advisories })];
  });
  return create(ListDocumentsResponseSchema, { documents });
}
