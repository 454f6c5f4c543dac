// ListAdvisories: unscoped in the guard, so the list narrows itself to the
// groups where the caller holds advisories.list; every filter of the
// reference (advisory-filters.ts), paging, order_by and skip from the list
// engine. Default order: uid ascending.
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import type { FieldViolation } from '../../core/api-error.js';
import { Capability } from '../../gen/berth/capabilities/v1/capabilities_pb.js';
import type { ListAdvisoriesRequest, ListAdvisoriesResponse } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';
import type { Condition } from '../../list/conditions.js';
import type { Page } from '../../list/keyset-page.js';
import { runList, type ListParams, type ListSpec } from '../../list/run-list.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { VULNERABILITIES_DOMAIN } from '../errors.js';
import { advisoryFilters, type AdvisoryFilterInput } from './advisory-filters.js';
import { advisoriesFromRows, type AdvisoryRow } from './advisory-read.js';

export const ADVISORIES_LIST: ListSpec = {
  table: 'advisories',
  domain: VULNERABILITIES_DOMAIN,
  columns: { uid: 'uid', advisory_id: 'advisory_id', created_at: 'create_time', updated_at: 'update_time' },
  defaultOrder: { field: 'uid', desc: false },
  // What a listed advisory shows (v2 and v1): not the search text or the import bookkeeping.
  select: [
    'uid',
    'advisory_id',
    'legacy_advisory_id',
    'create_time',
    'update_time',
    'author',
    'artifact_name',
    'artifact_type',
    'artifact_architecture',
    'component_name',
    'component_type',
    'component_location',
    'aliases',
  ],
};

/** One page of the advisories the caller may list (shared with the v1 List). */
export async function advisoriesPage(
  deps: ServiceDeps,
  ctx: HandlerContext,
  params: ListParams,
  filters: { conditions: Condition[]; key: unknown; violations?: FieldViolation[] },
): Promise<Page<AdvisoryRow>> {
  const caller = callerOf(ctx, VULNERABILITIES_DOMAIN);
  const visible = await caller.scopes(Capability.CAP_ADVISORIES_LIST);
  return runList<AdvisoryRow>(deps, ADVISORIES_LIST, params, filters, visible, caller.tableVersions);
}

/** The v2 request's filters. */
export function v2FilterInput(req: ListAdvisoriesRequest): AdvisoryFilterInput {
  return {
    advisoryIds: req.advisoryIds,
    legacyAdvisoryIds: req.legacyAdvisoryIds,
    artifactNames: req.artifactNames,
    artifactTypes: req.artifactTypes,
    artifactArchitectures: req.artifactArchitectures,
    componentNames: req.componentNames,
    componentTypes: req.componentTypes,
    componentLocations: req.componentLocations,
    aliases: req.aliases,
    origin: req.origin,
    eventReviewStates: req.eventReviewStates,
    eventAuthors: req.eventAuthors,
    eventReviewers: req.eventReviewers,
    excludeEventAuthors: req.excludeEventAuthors,
    eventTypes: req.eventTypes,
    latestEventType: req.latestEventType,
    query: req.query,
  };
}

export async function listAdvisories(deps: ServiceDeps, req: ListAdvisoriesRequest, ctx: HandlerContext): Promise<ListAdvisoriesResponse> {
  const page = await advisoriesPage(deps, ctx, req, advisoryFilters(v2FilterInput(req)));
  return {
    $typeName: 'berth.vulnerabilities.v2.ListAdvisoriesResponse',
    advisories: await advisoriesFromRows(deps.store.db, page.rows),
    nextPageToken: page.nextPageToken,
    totalCount: page.totalCount,
    skipped: page.skipped,
  };
}
