// The errors of the resolved vulnerability reports (v2 and v1), under the
// advisory feed's domain, where the RPCs live.
import { Code } from '@connectrpc/connect';
import { invalidArgument, type FieldViolation } from '../../core/api-error.js';
import { defineError } from '../../core/error-catalogue.js';
import { ADVISORY_FEED_DOMAIN } from '../../vulnerabilities/errors.js';

export const badResolvedVulnsRequest = defineError(
  {
    domain: ADVISORY_FEED_DOMAIN,
    name: 'badResolvedVulnsRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'ListResolvedVulnsReports without image_refs, start_time or end_time, with start after end, a range over 366 days, too many repos, tags or advisory events, an over-long name, or a tag that moved more than 20,000 times in the range',
  },
  (violations: FieldViolation[]) => invalidArgument(ADVISORY_FEED_DOMAIN, violations),
);
