// ListVulnerabilityMetadata: the vulnerability metadata rows (imported from
// OSV records), by id, paged by the list engine over a table that is not
// scoped by group (its key column is `id`). `id` and `ids` are merged; at
// most MAX_IDS distinct ones; none lists every row. Order: id only.
import { create, fromJson } from '@bufbuild/protobuf';
import type { FieldViolation } from '../../core/api-error.js';
import {
  type ListVulnerabilityMetadataRequest,
  type ListVulnerabilityMetadataResponse,
  ListVulnerabilityMetadataResponseSchema,
  type Reference,
  ReferenceSchema,
  type Severity,
  SeveritySchema,
  type VulnerabilityMetadata,
  VulnerabilityMetadataSchema,
} from '../../gen/berth/advisory/v2/advisory_pb.js';
import { oneOf, type Condition } from '../../list/conditions.js';
import { runList, type ListDeps, type ListSpec } from '../../list/run-list.js';
import type { VulnerabilityMetadataTable } from '../metadata-tables.js';
import { ADVISORY_FEED_DOMAIN } from '../errors.js';

export const MAX_IDS = 1000;
const MAX_ID_LENGTH = 256;

export const METADATA_LIST: ListSpec = {
  table: 'vulnerability_metadata',
  domain: ADVISORY_FEED_DOMAIN,
  columns: { id: 'id' },
  key: 'id',
  defaultOrder: { field: 'id', desc: false },
};

function idsOf(req: ListVulnerabilityMetadataRequest, violations: FieldViolation[]): string[] {
  const ids = [...new Set(req.id === '' ? req.ids : [req.id, ...req.ids])];
  if (ids.length > MAX_IDS) violations.push({ field: 'ids', description: `at most ${MAX_IDS} distinct ids (id and ids together)` });
  else if (ids.some((id) => id === '' || id.length > MAX_ID_LENGTH))
    violations.push({ field: 'ids', description: `each id must be 1 to ${MAX_ID_LENGTH} characters` });
  return ids.sort();
}

/** A JSON column's array of messages; a malformed one reads as none rather than failing the page. */
function messages<T>(text: string, parse: (v: never) => T): T[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.map((v) => parse(v as never)) : [];
}

function metadataFromRow(r: VulnerabilityMetadataTable): VulnerabilityMetadata {
  return create(VulnerabilityMetadataSchema, {
    id: r.id,
    summary: r.summary,
    details: r.details,
    references: messages<Reference>(r.refs, (v) => fromJson(ReferenceSchema, v, { ignoreUnknownFields: true })),
    severities: messages<Severity>(r.severities, (v) => fromJson(SeveritySchema, v, { ignoreUnknownFields: true })),
  });
}

export async function listVulnerabilityMetadata(deps: ListDeps, req: ListVulnerabilityMetadataRequest): Promise<ListVulnerabilityMetadataResponse> {
  const violations: FieldViolation[] = [];
  const ids = idsOf(req, violations);
  const conditions: Condition[] = ids.length > 0 ? [oneOf('id', ids)] : [];
  const page = await runList<VulnerabilityMetadataTable>(deps, METADATA_LIST, req, { conditions, key: { ids }, violations }, 'all');
  return create(ListVulnerabilityMetadataResponseSchema, {
    vulnerabilityMetadata: page.rows.map(metadataFromRow),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  });
}
