// Name rules of the OCI distribution spec, shared by the API and the registry.
import type { FieldViolation } from '../core/api-error.js';

const REPO_NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

export function repoNameViolation(name: string, field = 'name'): FieldViolation | undefined {
  if (name === '') return { field, description: `${field} is required` };
  if (name.length > 255 || !REPO_NAME.test(name)) {
    return { field, description: `${field} must be lowercase letters and digits separated by ".", "_", "__", "-" or "/" (at most 255 characters)` };
  }
  return undefined;
}

export function tagNameViolation(name: string, field = 'name'): FieldViolation | undefined {
  if (name === '') return { field, description: `${field} is required` };
  if (!TAG_NAME.test(name)) return { field, description: `${field} must match ^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$` };
  return undefined;
}

export function digestViolation(digest: string, field = 'digest'): FieldViolation | undefined {
  if (digest === '') return { field, description: `${field} is required` };
  if (!DIGEST.test(digest)) return { field, description: `${field} must be sha256:<64 lowercase hex>` };
  return undefined;
}
