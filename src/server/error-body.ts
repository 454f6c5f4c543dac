// The one REST error shape: {code, message, details:[{"@type": …}]} — a
// google.rpc.Status in proto3 JSON. Causes of unexpected errors are logged
// by the caller, never sent.
import type { JsonObject } from '@bufbuild/protobuf';
import { toJson } from '@bufbuild/protobuf';
import { ConnectError } from '@connectrpc/connect';
import { httpStatusOf } from '../core/error-codes.js';
import { databaseUnavailable, internal } from './errors.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';

export interface ErrorResponse {
  status: number;
  body: JsonObject;
  /** Response headers the error asks for (Retry-After on UNAVAILABLE). */
  headers: Record<string, string>;
}

/** The client-facing error for a failure Berth did not raise on purpose. */
function unexpectedError(err: unknown, domain: string): ConnectError {
  return isDatabaseUnavailable(err) ? databaseUnavailable(domain) : internal(domain);
}

export function errorResponse(err: unknown, domain: string): ErrorResponse {
  const ce = err instanceof ConnectError && err.details.length > 0 ? err : unexpectedError(err, domain);
  const details: JsonObject[] = [];
  for (const d of ce.details) {
    if ('desc' in d) {
      details.push({ '@type': `type.googleapis.com/${d.desc.typeName}`, ...(toJson(d.desc, d.value as never) as JsonObject) });
    }
  }
  const headers: Record<string, string> = {};
  const retryAfter = ce.metadata.get('retry-after');
  if (retryAfter !== null) headers['retry-after'] = retryAfter;
  return { status: httpStatusOf(ce.code), body: { code: ce.code, message: ce.rawMessage, details }, headers };
}

/** True when the error is not one Berth made on purpose (it must be logged). */
export function isUnexpected(err: unknown): boolean {
  return !(err instanceof ConnectError && err.details.length > 0);
}
