// The v1 List: AdvisoryFilter's single-valued filters mapped onto the v2
// filter builders, so both versions filter alike, over the same list engine
// (paging, capability narrowing).
import type { HandlerContext } from '@connectrpc/connect';
import { OrderBy, type AdvisoriesList, type AdvisoryFilter } from '../../gen/berth/vulnerabilities/v1/advisories_pb.js';
import { equal, type Condition } from '../../list/conditions.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { eventsOf } from '../advisories/advisory-read.js';
import { advisoryFilters, V2_FIELD_NAMES, type AdvisoryFilterInput, type FilterField } from '../advisories/advisory-filters.js';
import { advisoriesPage } from '../advisories/list-advisories.js';
import { badAdvisoriesRequest } from '../errors.js';
import { v1AdvisoryFromRow } from './v1-messages.js';

const V1_FIELD_NAMES: Readonly<Record<FilterField, string>> = {
  ...V2_FIELD_NAMES,
  advisoryIds: 'advisory_id',
  artifactNames: 'artifact_name',
  artifactTypes: 'artifact_type',
  artifactArchitectures: 'artifact_architecture',
  componentNames: 'component_name',
  componentTypes: 'component_type',
  eventReviewStates: 'event_statuses',
  eventAuthors: 'event_author',
  eventReviewers: 'event_reviewer',
  excludeEventAuthors: 'exclude_event_author',
};

const ORDERS: Record<number, string> = {
  [OrderBy.ORDER_BY_UNSPECIFIED]: '',
  [OrderBy.ID_ASC]: 'uid asc',
  [OrderBy.ID_DESC]: 'uid desc',
  [OrderBy.CREATED_AT_ASC]: 'created_at asc',
  [OrderBy.CREATED_AT_DESC]: 'created_at desc',
};

const one = (v: string | undefined): string[] => (v === undefined ? [] : [v]);

export function v1FilterInput(f: AdvisoryFilter): AdvisoryFilterInput {
  return {
    advisoryIds: f.advisoryId === '' ? [] : [f.advisoryId],
    legacyAdvisoryIds: [],
    artifactNames: one(f.artifactName),
    artifactTypes: one(f.artifactType),
    artifactArchitectures: one(f.artifactArchitecture),
    componentNames: one(f.componentName),
    componentTypes: one(f.componentType),
    componentLocations: [],
    aliases: f.aliases,
    eventReviewStates: f.eventStatuses,
    eventAuthors: one(f.eventAuthor),
    eventReviewers: one(f.eventReviewer),
    excludeEventAuthors: one(f.excludeEventAuthor),
    eventTypes: f.eventTypes,
    query: '',
  };
}

export async function listAdvisoriesV1(deps: ServiceDeps, req: AdvisoryFilter, ctx: HandlerContext): Promise<AdvisoriesList> {
  const orderBy = ORDERS[req.orderBy];
  if (orderBy === undefined) throw badAdvisoriesRequest([{ field: 'order_by', description: `unknown order ${req.orderBy}` }]);
  if (req.pageSize < 0n || req.pageSize > 1_000_000n)
    throw badAdvisoriesRequest([{ field: 'page_size', description: 'page_size is 0 to 1000000 (at most 200 are returned)' }]);
  const filters = advisoryFilters(v1FilterInput(req), V1_FIELD_NAMES);
  const conditions: Condition[] = [...filters.conditions];
  if (req.id !== '') conditions.push(equal('uid', req.id));
  const page = await advisoriesPage(
    deps,
    ctx,
    { uidp: req.uidp, pageSize: Number(req.pageSize), pageToken: req.pageToken, orderBy, skip: 0 },
    { conditions, key: { f: filters.key, id: req.id }, violations: filters.violations },
  );
  const events = await eventsOf(
    deps.store.db,
    page.rows.map((r) => r.uid),
  );
  return {
    $typeName: 'berth.vulnerabilities.v1.AdvisoriesList',
    id: '',
    items: page.rows.map((r) => v1AdvisoryFromRow(r, events.get(r.uid) ?? [])),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
  };
}
