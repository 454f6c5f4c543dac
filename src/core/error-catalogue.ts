// Every error Berth returns is declared once, here, with when it happens: the
// named factories in src/<domain>/errors.ts (and src/core/request-errors.ts,
// src/auth/errors.ts, src/server/errors.ts) are made by defineError, which
// records them. docs/errors.md is generated from this catalogue (npm run
// docs), and a test keeps the two equal. ErrorInfo.reason stays the code's
// name, as the contract shows; the catalogue's key is the named error.
import type { Code, ConnectError } from '@connectrpc/connect';
import { codeName, httpStatusOf } from './error-codes.js';

export type ErrorDetail = 'BadRequest' | 'ResourceInfo' | 'PreconditionFailure' | 'ErrorInfo only';

export interface CatalogueEntry {
  /** ErrorInfo domain, or "any" for errors every service can return. */
  domain: string;
  /** The factory's name, e.g. groupNotFound. */
  name: string;
  code: Code;
  detail: ErrorDetail;
  /** PreconditionFailure violation type, for FAILED_PRECONDITION errors. */
  type?: string;
  /** When Berth returns it. */
  when: string;
}

export interface CatalogueRow extends CatalogueEntry {
  reason: string;
  httpStatus: number;
}

const entries: CatalogueEntry[] = [];

export function defineError<A extends unknown[]>(entry: CatalogueEntry, make: (...args: A) => ConnectError): (...args: A) => ConnectError {
  entries.push(entry);
  return make;
}

/** The errors declared by every module imported so far. */
export function catalogue(): CatalogueRow[] {
  return entries.map((e) => ({ ...e, reason: codeName(e.code), httpStatus: httpStatusOf(e.code) }));
}
