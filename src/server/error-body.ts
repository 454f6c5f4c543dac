// The one REST error shape: {code, message, details:[{"@type": …}]} — a
// google.rpc.Status in proto3 JSON. Causes of unexpected errors are logged
// by the caller, never sent.
import type { JsonObject } from '@bufbuild/protobuf';
import { toJson } from '@bufbuild/protobuf';
import type { ConnectError } from '@connectrpc/connect';
import { httpStatusOf } from '../core/error-codes.js';
import { badRequest } from '../core/request-errors.js';
import { answerClientErrorWith } from '../http/client-errors.js';
import { internal } from './errors.js';

export interface ErrorResponse {
  status: number;
  body: JsonObject;
  /** Response headers the error asks for (Retry-After on UNAVAILABLE). */
  headers: Record<string, string>;
}

/** The wire form of an error; pass unexpected failures through normalizeError first (it logs them). */
export function errorResponse(err: ConnectError, domain: string): ErrorResponse {
  const ce = err.details.length > 0 ? err : internal(domain); // e.g. one Connect raised itself: never shown bare
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

const DOMAIN = 'api.berth.dev';

/** The API port's answer to a request Node's HTTP/1.1 parser rejects (src/http/client-errors.ts). */
export const answerClientError = answerClientErrorWith((_status, field, description) =>
  JSON.stringify(errorResponse(badRequest(DOMAIN, [{ field, description }]), DOMAIN).body),
);
