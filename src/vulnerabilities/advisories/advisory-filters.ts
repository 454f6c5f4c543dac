// The filters of ListAdvisories (v2) and List (v1), as list-engine
// conditions: exact filters on the advisory's indexed columns, the aliases
// and event filters as sub-queries over their own tables, `query` as a
// substring of the lowered search column. One builder for both API
// versions, so they filter alike; each version maps its fields onto
// AdvisoryFilterInput and names its own fields in errors.
import type { FieldViolation } from '../../core/api-error.js';
import { contains, equal, exists, inSubquery, oneOf, type AnyEB, type Condition } from '../../list/conditions.js';
import { EventTypeFilter, ReviewState } from '../../gen/berth/vulnerabilities/v2/advisories_pb.js';

export interface AdvisoryFilterInput {
  advisoryIds: readonly string[];
  legacyAdvisoryIds: readonly string[];
  artifactNames: readonly string[];
  artifactTypes: readonly string[];
  artifactArchitectures: readonly string[];
  componentNames: readonly string[];
  componentTypes: readonly string[];
  componentLocations: readonly string[];
  aliases: readonly string[];
  /** When set (non-empty), artifactNames is ignored. */
  origin?: string;
  eventReviewStates: readonly number[];
  eventAuthors: readonly string[];
  eventReviewers: readonly string[];
  excludeEventAuthors: readonly string[];
  eventTypes: readonly number[];
  latestEventType?: number;
  query: string;
}

export type FilterField = keyof AdvisoryFilterInput;

/** The v2 request's field names (snake_case, as errors name fields). */
export const V2_FIELD_NAMES: Readonly<Record<FilterField, string>> = {
  advisoryIds: 'advisory_ids',
  legacyAdvisoryIds: 'legacy_advisory_ids',
  artifactNames: 'artifact_names',
  artifactTypes: 'artifact_types',
  artifactArchitectures: 'artifact_architectures',
  componentNames: 'component_names',
  componentTypes: 'component_types',
  componentLocations: 'component_locations',
  aliases: 'aliases',
  origin: 'origin',
  eventReviewStates: 'event_review_states',
  eventAuthors: 'event_authors',
  eventReviewers: 'event_reviewers',
  excludeEventAuthors: 'exclude_event_authors',
  eventTypes: 'event_types',
  latestEventType: 'latest_event_type',
  query: 'query',
};

export const MAX_FILTER_VALUES = 1000;
export const MAX_FILTER_STRING = 1024;
export const MAX_QUERY = 256;

/** Exact filters and the column each reads. */
const EXACT: ReadonlyArray<[FilterField & keyof AdvisoryFilterInput, string]> = [
  ['advisoryIds', 'advisory_id'],
  ['legacyAdvisoryIds', 'legacy_advisory_id'],
  ['artifactNames', 'artifact_name'],
  ['artifactTypes', 'artifact_type'],
  ['artifactArchitectures', 'artifact_architecture'],
  ['componentNames', 'component_name'],
  ['componentTypes', 'component_type'],
  ['componentLocations', 'component_location'],
];

const STRING_LISTS: readonly FilterField[] = [...EXACT.map(([f]) => f), 'aliases', 'eventAuthors', 'eventReviewers', 'excludeEventAuthors'];

/** Events of the listed advisory whose `column` is one of the values. */
function eventsWhere(column: string): (eb: AnyEB, vs: readonly unknown[]) => ReturnType<AnyEB['selectFrom']> {
  return (eb, vs) =>
    eb
      .selectFrom('advisory_events as e')
      .select('e.advisory_uid')
      .whereRef('e.advisory_uid', '=', 'advisories.uid')
      .where(`e.${column}`, 'in', vs as unknown[]);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function checkStrings(field: string, values: readonly string[], max: number, violations: FieldViolation[]): void {
  if (values.length > MAX_FILTER_VALUES) violations.push({ field, description: `at most ${MAX_FILTER_VALUES} values` });
  for (const v of values) {
    if (v.length > max) {
      violations.push({ field, description: `values are at most ${max} characters` });
      return;
    }
    if (v.includes('\u0000')) {
      violations.push({ field, description: 'must not contain NUL (\\u0000) characters' });
      return;
    }
  }
}

function checkEnum(field: string, values: readonly number[], known: object, violations: FieldViolation[]): void {
  if (values.length > MAX_FILTER_VALUES) violations.push({ field, description: `at most ${MAX_FILTER_VALUES} values` });
  for (const v of values) {
    if (v === 0) {
      violations.push({ field, description: 'the unspecified value (0) is not a filter' });
      return;
    }
    if (typeof (known as Record<number, unknown>)[v] !== 'string') {
      violations.push({ field, description: `unknown value ${v}` });
      return;
    }
  }
}

/**
 * The conditions of a filter, the part of the list's fingerprint it makes,
 * and what is wrong with it (field names from `names`).
 */
export function advisoryFilters(
  f: AdvisoryFilterInput,
  names: Readonly<Record<FilterField, string>> = V2_FIELD_NAMES,
): { conditions: Condition[]; key: unknown; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  for (const field of STRING_LISTS) checkStrings(names[field], f[field] as readonly string[], MAX_FILTER_STRING, violations);
  if (f.origin !== undefined) checkStrings(names.origin, [f.origin], MAX_FILTER_STRING, violations);
  checkEnum(names.eventReviewStates, f.eventReviewStates, ReviewState, violations);
  checkEnum(names.eventTypes, f.eventTypes, EventTypeFilter, violations);
  if (f.latestEventType !== undefined) checkEnum(names.latestEventType, [f.latestEventType], EventTypeFilter, violations);
  if (f.query.length > MAX_QUERY) violations.push({ field: names.query, description: `at most ${MAX_QUERY} characters` });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  else if (/[\u0000-\u001f]/.test(f.query)) violations.push({ field: names.query, description: 'must not contain control characters' });

  const conditions: Condition[] = [];
  const origin = f.origin !== undefined && f.origin !== '' ? f.origin : undefined;
  for (const [field, column] of EXACT) {
    if (field === 'artifactNames' && origin !== undefined) continue;
    const values = f[field] as readonly string[];
    if (values.length > 0) conditions.push(oneOf(column, unique(values)));
  }
  if (origin !== undefined) conditions.push(equal('origin', origin));
  if (f.aliases.length > 0) {
    conditions.push(
      inSubquery('uid', 'advisory aliases', unique(f.aliases), (eb, vs) =>
        eb
          .selectFrom('advisory_aliases')
          .select('advisory_uid')
          .where('alias', 'in', vs as unknown[]),
      ),
    );
  }
  if (f.eventReviewStates.length > 0) conditions.push(exists('advisory events review_state', unique(f.eventReviewStates), eventsWhere('review_state')));
  if (f.eventAuthors.length > 0) conditions.push(exists('advisory events author', unique(f.eventAuthors), eventsWhere('author')));
  if (f.eventReviewers.length > 0) conditions.push(exists('advisory events reviewer', unique(f.eventReviewers), eventsWhere('reviewer')));
  if (f.eventTypes.length > 0) conditions.push(exists('advisory events type', unique(f.eventTypes), eventsWhere('type')));
  if (f.excludeEventAuthors.length > 0) conditions.push(exists('advisory events author', unique(f.excludeEventAuthors), eventsWhere('author'), true));
  if (f.latestEventType !== undefined) conditions.push(equal('latest_event_type', f.latestEventType));
  if (f.query !== '') conditions.push(contains('search', f.query.toLowerCase()));

  const key = { ...f, origin, artifactNames: origin === undefined ? f.artifactNames : [] };
  return { conditions, key, violations };
}
