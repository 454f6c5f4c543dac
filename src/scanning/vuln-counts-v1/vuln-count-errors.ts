// The errors of the v1 vulnerability count reports, under the registry's
// domain (the API is the registry's v1 API).
import { Code } from '@connectrpc/connect';
import { invalidArgument, type FieldViolation } from '../../core/api-error.js';
import { defineError } from '../../core/error-catalogue.js';
import { REGISTRY_DOMAIN } from '../../registry/errors.js';

export const badVulnCountRequest = defineError(
  {
    domain: REGISTRY_DOMAIN,
    name: 'badVulnCountRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'a vulnerability count request with no repo, an over-long name, from after to, a range over 366 days, more items than one answer holds, or a tag that moved more than 20,000 times in the range',
  },
  (violations: FieldViolation[]) => invalidArgument(REGISTRY_DOMAIN, violations),
);
