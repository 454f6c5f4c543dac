// What the listeners learn about a request while it runs, for its access log
// line and its metrics: the route template it matched and the caller's
// identity. The listener opens the record on the raw request
// (request-observer.ts); the router that matches a route notes it there, and
// the RPC transports put the record in the handler context (requestRecordKey)
// for the guard that authenticates the caller. Carried by the request itself
// rather than an AsyncLocalStorage: a store per request was a visible share of
// the observability's cost (docs/performance.md).
import { createContextKey } from '@connectrpc/connect';

export interface RequestRecord {
  /** The route template, e.g. /iam/v2/groups/{uid}, or a gRPC method path; never the raw path. */
  route?: string;
  /** The authenticated caller's identity uid. */
  caller?: string;
}

/** Where a raw request carries its record (HTTP/1 requests have it from construction: src/http/observed-request.ts). */
export const RECORD = Symbol('berth.requestRecord');
type Carrier = { [RECORD]?: RequestRecord };

/** The record of an RPC's request, in its handler context (undefined when nothing observes requests). */
export const requestRecordKey = createContextKey<RequestRecord | undefined>(undefined, { description: 'berth request record' });

/** Opens the record of `request` (a raw node request). */
export function openRequestRecord(request: object): RequestRecord {
  const record: RequestRecord = {};
  (request as Carrier)[RECORD] = record;
  return record;
}

/** The record of a raw request, when one was opened. */
export function requestRecordOf(request: object): RequestRecord | undefined {
  return (request as Carrier)[RECORD];
}

/** Notes the route template a request matched (the most specific wins: set last). */
export function noteRoute(record: RequestRecord | undefined, template: string): void {
  if (record) record.route = template;
}

/** Notes a request's authenticated caller. */
export function noteCaller(record: RequestRecord | undefined, identityUid: string | undefined): void {
  if (record && identityUid) record.caller = identityUid;
}
