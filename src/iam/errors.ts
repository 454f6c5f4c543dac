// Every error the IAM domain returns, made by name.
import { alreadyExists, failedPrecondition, invalidArgument, notFound, type FieldViolation } from '../core/api-error.js';

export const IAM_DOMAIN = 'iam.berth.dev';

export const badIamRequest = (violations: FieldViolation[]) => invalidArgument(IAM_DOMAIN, violations);

// Groups
export const groupNotFound = (uid: string) => notFound(IAM_DOMAIN, 'iam.berth.dev/Group', uid);
export const groupNotEmpty = (description: string) => failedPrecondition(IAM_DOMAIN, 'RESOURCE_NOT_EMPTY', description);
export const rootGroupNameTaken = (name: string) =>
  alreadyExists(IAM_DOMAIN, 'iam.berth.dev/Group', name, `an organization named ${JSON.stringify(name)} already exists`);

// Identities
export const identityNotFound = (uid: string) => notFound(IAM_DOMAIN, 'iam.berth.dev/Identity', uid);
