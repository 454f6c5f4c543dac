// Every error the registry domain returns, made by name.
import { alreadyExists, invalidArgument, notFound, type FieldViolation } from '../core/api-error.js';

export const REGISTRY_DOMAIN = 'registry.berth.dev';

export const repoNotFound = (uid: string) => notFound(REGISTRY_DOMAIN, 'registry.berth.dev/Repo', uid);
export const tagNotFound = (uid: string) => notFound(REGISTRY_DOMAIN, 'registry.berth.dev/Tag', uid);
export const parentGroupNotFound = (uid: string) => notFound(REGISTRY_DOMAIN, 'iam.berth.dev/Group', uid);
export const repoNameTaken = (parent: string, name: string) =>
  alreadyExists(REGISTRY_DOMAIN, 'registry.berth.dev/Repo', `${parent}:${name}`, `a repo named ${JSON.stringify(name)} already exists in this group`);
export const badRegistryRequest = (violations: FieldViolation[]) => invalidArgument(REGISTRY_DOMAIN, violations);
