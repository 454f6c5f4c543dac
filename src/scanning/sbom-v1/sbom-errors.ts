// The errors of the v1 SBOM RPCs, under the registry's domain (the API is
// the registry's v1 API). A digest the repo does not hold is the registry's
// imageNotFound; an unknown repo its repoNotFound.
import { Code } from '@connectrpc/connect';
import { failedPrecondition, invalidArgument, unavailable, type FieldViolation } from '../../core/api-error.js';
import { defineError } from '../../core/error-catalogue.js';
import { REGISTRY_DOMAIN } from '../../registry/errors.js';

const d = REGISTRY_DOMAIN;

export const badSbomRequest = defineError(
  { domain: d, name: 'badSbomRequest', code: Code.InvalidArgument, detail: 'BadRequest', when: 'an SBOM request with a malformed digest' },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
export const sbomNotReady = defineError(
  {
    domain: d,
    name: 'sbomNotReady',
    code: Code.Unavailable,
    detail: 'ErrorInfo only',
    when: 'the image is not inventoried yet: the message gives the scan job state and progress (retry after Retry-After)',
  },
  (state: string) => unavailable(d, `the image's inventory is not ready: ${state}`),
);
export const sbomScanFailed = defineError(
  {
    domain: d,
    name: 'sbomScanFailed',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'SCAN_FAILED',
    when: 'the image could not be inventoried (every retry failed); the message gives the last error',
  },
  (digest: string, error: string) => failedPrecondition(d, 'SCAN_FAILED', `the inventory of ${digest} failed: ${error}`, digest),
);
export const sbomNotAnImage = defineError(
  {
    domain: d,
    name: 'sbomNotAnImage',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'NOT_AN_IMAGE',
    when: 'the digest is an artifact Berth does not inventory (a referrer such as a signature or an SBOM, a Helm chart)',
  },
  (digest: string, artifactType: string) =>
    failedPrecondition(d, 'NOT_AN_IMAGE', `${digest} is not a container image (artifact type ${artifactType}); Berth inventories images only`, digest),
);
