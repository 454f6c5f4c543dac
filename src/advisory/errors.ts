// Every error the advisory feed (/advisory/v2) returns, made by name and
// declared in the catalogue. Paging errors of the metadata list are the
// list engine's (badListRequest) with this domain.
import { Code } from '@connectrpc/connect';
import { failedPrecondition, invalidArgument, type FieldViolation } from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const ADVISORY_DOMAIN = 'advisory.berth.dev';
const d = ADVISORY_DOMAIN;

export const badDocumentsRequest = defineError(
  {
    domain: d,
    name: 'badDocumentsRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'ListDocuments with neither id nor cves, more than 1000 distinct cves, or an empty or over-long (256 characters) id or cve',
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
export const tooManyDocumentAdvisories = defineError(
  {
    domain: d,
    name: 'tooManyDocumentAdvisories',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'TOO_MANY_RESULTS',
    when: 'ListDocuments (which has no paging) matches more advisory rows or approved events than it returns at once',
  },
  (what: string, limit: number) =>
    failedPrecondition(d, 'TOO_MANY_RESULTS', `more than ${limit} ${what} match; narrow the request with id (one origin package) or fewer cves`),
);
