// Every error the registry domain returns, made by name and declared in the catalogue.
import { Code } from '@connectrpc/connect';
import { alreadyExists, failedPrecondition, invalidArgument, notFound, type FieldViolation } from '../core/api-error.js';
import { defineError } from '../core/error-catalogue.js';

export const REGISTRY_DOMAIN = 'registry.berth.dev';
const d = REGISTRY_DOMAIN;

export const repoNotFound = defineError(
  { domain: d, name: 'repoNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the repo does not exist' },
  (uid: string) => notFound(d, 'registry.berth.dev/Repo', uid),
);
export const tagNotFound = defineError(
  { domain: d, name: 'tagNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the tag does not exist' },
  (uid: string) => notFound(d, 'registry.berth.dev/Tag', uid),
);
export const parentGroupNotFound = defineError(
  { domain: d, name: 'parentGroupNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'creating a repo in a group that does not exist' },
  (uid: string) => notFound(d, 'iam.berth.dev/Group', uid),
);
export const repoNameTaken = defineError(
  { domain: d, name: 'repoNameTaken', code: Code.AlreadyExists, detail: 'ResourceInfo', when: 'a repo of that name exists in the group' },
  (parent: string, name: string) =>
    alreadyExists(d, 'registry.berth.dev/Repo', `${parent}:${name}`, `a repo named ${JSON.stringify(name)} already exists in this group`),
);
export const badRegistryRequest = defineError(
  {
    domain: d,
    name: 'badRegistryRequest',
    code: Code.InvalidArgument,
    detail: 'BadRequest',
    when: 'an invalid repo or tag name, description, digest, architecture or readme',
  },
  (violations: FieldViolation[]) => invalidArgument(d, violations),
);
export const tagDigestNotInRepo = defineError(
  {
    domain: d,
    name: 'tagDigestNotInRepo',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'MANIFEST_UNKNOWN',
    when: 'creating or moving a tag to a digest that is not a manifest pushed to the repo',
  },
  (repoUid: string, digest: string) =>
    failedPrecondition(d, 'MANIFEST_UNKNOWN', `the repo holds no manifest ${digest}; push the image before tagging it`, `${repoUid}@${digest}`),
);
export const imageNotFound = defineError(
  { domain: d, name: 'imageNotFound', code: Code.NotFound, detail: 'ResourceInfo', when: 'the repo holds no manifest of that digest (Images API)' },
  (repoUid: string, digest: string) => notFound(d, 'registry.berth.dev/Image', `${repoUid}@${digest}`),
);
export const architectureNotFound = defineError(
  {
    domain: d,
    name: 'architectureNotFound',
    code: Code.NotFound,
    detail: 'ResourceInfo',
    when: 'sizing an architecture the image does not offer (GetSize; amd64 when none is named)',
  },
  (repoUid: string, digest: string, architecture: string) => notFound(d, 'registry.berth.dev/Architecture', `${architecture} of ${repoUid}@${digest}`),
);
export const imageConfigUnavailable = defineError(
  {
    domain: d,
    name: 'imageConfigUnavailable',
    code: Code.FailedPrecondition,
    detail: 'PreconditionFailure',
    type: 'CONFIG_UNAVAILABLE',
    when: 'GetImageConfig on a server without a registry (no blob store), or whose config blob is not stored or larger than 1 MiB',
  },
  (repoUid: string, digest: string, why: string) =>
    failedPrecondition(d, 'CONFIG_UNAVAILABLE', `the config of ${digest} cannot be read: ${why}`, `${repoUid}@${digest}`),
);
