// Errors about the shape of a request that any service can return: the
// domain is the service's.
import { Code } from '@connectrpc/connect';
import { failedPrecondition, invalidArgument, type FieldViolation } from './api-error.js';
import { defineError } from './error-catalogue.js';

export const badRequest = defineError(
  {
    domain: 'any',
    name: 'badRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'malformed JSON or protobuf, wrong types, unknown enum values, too many query parameters, a missing or invalid uid in the path',
  },
  (domain: string, violations: FieldViolation[]) => invalidArgument(domain, violations),
);

export const nulInString = defineError(
  { domain: 'any', name: 'nulInString', code: Code.InvalidArgument, detail: 'BadRequest', when: 'a string anywhere in the request contains NUL (\\u0000)' },
  (domain: string, field: string) => invalidArgument(domain, [{ field, description: 'must not contain NUL (\\u0000) characters' }]),
);

export const badUpdateMask = defineError(
  {
    domain: 'any',
    name: 'badUpdateMask',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'an update_mask path names no updatable field, or "*" is combined with others',
  },
  (domain: string, description: string) => invalidArgument(domain, [{ field: 'update_mask', description }]),
);

export const badListRequest = defineError(
  {
    domain: 'any',
    name: 'badListRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'a negative page_size or skip, an unknown order_by field, an invalid uidp filter, a forged, edited or foreign page_token',
  },
  (domain: string, violations: FieldViolation[]) => invalidArgument(domain, violations),
);

export const tooManyForV1 = defineError(
  {
    domain: 'any',
    name: 'tooManyForV1',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'TOO_MANY_RESULTS',
    when: 'a v1 List (which has no paging) matches more than it answers at once: 1,000 items (10,000 tags)',
  },
  (domain: string, limit: number, what: string, v2Path: string) =>
    failedPrecondition(domain, 'TOO_MANY_RESULTS', `more than ${limit} ${what} match; narrow the list with its filters, or use GET ${v2Path}, which pages`),
);
