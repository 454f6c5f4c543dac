// The errors of the v1 vulnerability report RPCs, under the registry's domain
// (the API is the registry's v1 API).
import { Code } from '@connectrpc/connect';
import { failedPrecondition, invalidArgument, notFound, unavailable, type FieldViolation } from '../../core/api-error.js';
import { defineError } from '../../core/error-catalogue.js';
import { REGISTRY_DOMAIN } from '../../registry/errors.js';

const d = REGISTRY_DOMAIN;

export const badVulnReportRequest = defineError(
  {
    domain: d,
    name: 'badVulnReportRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'a vulnerability report request with a malformed digest, no scanner, or a tag without a repo',
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
export const vulnReportNotFound = defineError(
  {
    domain: d,
    name: 'vulnReportNotFound',
    code: Code.NotFound,
    detail: 'ResourceInfo',
    when: 'no report of that scanner (and time) for the digest in a repo the caller may see',
  },
  (digest: string, scanner: string) => notFound(d, 'registry.berth.dev/VulnReport', `${digest} ${scanner}`),
);
export const vulnReportNotReady = defineError(
  {
    domain: d,
    name: 'vulnReportNotReady',
    code: Code.Unavailable,
    detail: 'ErrorInfo only',
    when: "the image is inventoried but Berth's report is not stored yet: the message gives the match job's state (retry after Retry-After)",
  },
  (state: string) => unavailable(d, `the image's vulnerability report is not ready: ${state}`),
);
export const vulnReportFailed = defineError(
  {
    domain: d,
    name: 'vulnReportFailed',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'MATCH_FAILED',
    when: "the image's inventory could not be matched (every retry failed); the message gives the last error",
  },
  (digest: string, error: string) => failedPrecondition(d, 'MATCH_FAILED', `matching the inventory of ${digest} failed: ${error}`, digest),
);
