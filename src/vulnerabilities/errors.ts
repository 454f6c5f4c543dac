// Every error the vulnerabilities domain returns, made by name and declared
// in the catalogue: the advisories' (/vulnerabilities) and the advisory feed's
// (/advisory/v2), each under the ErrorInfo domain its API has on the wire.
// Paging errors of the metadata list are the list engine's (badListRequest)
// with the feed's domain.
import { Code } from '@connectrpc/connect';
import { alreadyExists, failedPrecondition, invalidArgument, notFound, permissionDenied, type FieldViolation } from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const VULNERABILITIES_DOMAIN = 'vulnerabilities.berth.dev';
const d = VULNERABILITIES_DOMAIN;

/** The advisory feed's (berth.advisory.v2) ErrorInfo domain. */
export const ADVISORY_FEED_DOMAIN = 'advisory.berth.dev';
const feed = ADVISORY_FEED_DOMAIN;

export const ADVISORY_RESOURCE = 'vulnerabilities.berth.dev/Advisory';
export const ADVISORY_EVENT_RESOURCE = 'vulnerabilities.berth.dev/AdvisoryEvent';

export const advisoryNotFound = defineError(
  { domain: d, name: 'advisoryNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the advisory does not exist (checked after the permission)' },
  (uid: string) => notFound(d, ADVISORY_RESOURCE, uid),
);
export const advisoryEventNotFound = defineError(
  { domain: d, name: 'advisoryEventNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the advisory event does not exist' },
  (uid: string) => notFound(d, ADVISORY_EVENT_RESOURCE, uid),
);
export const advisoryGroupNotFound = defineError(
  { domain: d, name: 'advisoryGroupNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'creating an advisory under a uid that is not a group' },
  (uid: string) => notFound(d, 'iam.berth.dev/Group', uid),
);
export const badAdvisoriesRequest = defineError(
  {
    domain: d,
    name: 'badAdvisoriesRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'a filter with an unspecified or unknown enum value, an oversize string or more than 1000 values; an advisory or event missing a required field, a malformed CGA id or alias, an event without a type',
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
export const advisoryExists = defineError(
  {
    domain: d,
    name: 'advisoryExists',
    code: Code.AlreadyExists,
    detail: 'ResourceInfo',
    when: 'the group already holds an advisory with the same id, artifact, architecture, component and location',
  },
  (uid: string) => alreadyExists(d, ADVISORY_RESOURCE, uid, 'the group already holds this advisory (same id, artifact, architecture and component)'),
);
export const advisoryEventFinal = defineError(
  {
    domain: d,
    name: 'advisoryEventFinal',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'EVENT_REVIEWED',
    when: 'changing an advisory event that was approved or rejected (terminal states), or editing the payload of an event under review by someone other than its author',
  },
  (uid: string, description: string) => failedPrecondition(d, 'EVENT_REVIEWED', description, uid),
);
export const selfReview = defineError(
  {
    domain: d,
    name: 'selfReview',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'approving, rejecting or requesting changes to an advisory event one authored (a reviewer must be someone else)',
  },
  () => permissionDenied(d, 'an advisory event is reviewed by someone other than its author'),
);
export const notEventAuthor = defineError(
  {
    domain: d,
    name: 'notEventAuthor',
    code: Code.PermissionDenied,
    detail: 'ErrorInfo only',
    when: 'editing the payload of an advisory event someone else authored (others review it: status APPROVED, REJECTED or REQUEST_CHANGES)',
  },
  () => permissionDenied(d, 'only the author of an advisory event edits its payload'),
);
export const badDocumentsRequest = defineError(
  {
    domain: feed,
    name: 'badDocumentsRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'ListDocuments with neither id nor cves, more than 1000 distinct cves, or an empty or over-long (256 characters) id or cve',
  },
  (violations: FieldViolation[]) => invalidArgument(feed, violations),
);
export const tooManyDocumentAdvisories = defineError(
  {
    domain: feed,
    name: 'tooManyDocumentAdvisories',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'TOO_MANY_RESULTS',
    when: 'ListDocuments (which has no paging) matches more advisory rows or approved events than it returns at once',
  },
  (what: string, limit: number) =>
    failedPrecondition(feed, 'TOO_MANY_RESULTS', `more than ${limit} ${what} match; narrow the request with id (one origin package) or fewer cves`),
);
