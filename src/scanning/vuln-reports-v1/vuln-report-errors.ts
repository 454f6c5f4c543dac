// The errors of the v1 vulnerability report RPCs, under the registry's domain
// (the API is the registry's v1 API).
import { Code } from '@connectrpc/connect';
import { invalidArgument, notFound, type FieldViolation } from '../../core/api-error.js';
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
