// Every error the libraries domain returns, made by name and declared in the
// catalogue. Paging errors are the list engine's (badListRequest) under this
// domain.
import { Code } from '@connectrpc/connect';
import { invalidArgument, notFound, type FieldViolation } from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const LIBRARIES_DOMAIN = 'libraries.berth.dev';
const d = LIBRARIES_DOMAIN;

export const ARTIFACT_RESOURCE = 'libraries.berth.dev/Artifact';

export const badLibrariesRequest = defineError(
  {
    domain: d,
    name: 'badLibrariesRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'no ecosystem, an unspecified or unknown ecosystem, more than 8, an oversize or malformed query, cuda_version or artifact id',
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
export const artifactNotFound = defineError(
  {
    domain: d,
    name: 'artifactNotFound',
    code: Code.NotFound,
    detail: 'ResourceInfo',
    when: 'no catalogue the caller may read holds the artifact (the same answer whether another one does)',
  },
  (uid: string) => notFound(d, ARTIFACT_RESOURCE, uid),
);
