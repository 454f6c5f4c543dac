// What the listeners learn about a request while it runs, for its access log
// line and its metrics: the route template it matched and the caller's
// identity. The listener opens the record (request-observer.ts) and runs the
// request inside it; the code that matches a route or authenticates a caller
// notes what it found, without being handed the raw request.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestRecord {
  /** The route template, e.g. /iam/v2/groups/{uid}, or a gRPC method path; never the raw path. */
  route?: string;
  /** The authenticated caller's identity uid. */
  caller?: string;
}

const records = new AsyncLocalStorage<RequestRecord>();

/** Runs `fn` with `record` as the current request's. */
export function withRequestRecord<T>(record: RequestRecord, fn: () => T): T {
  return records.run(record, fn);
}

/** Notes the route template the current request matched (the most specific wins: set last). */
export function noteRoute(template: string): void {
  const r = records.getStore();
  if (r) r.route = template;
}

/** Notes the current request's authenticated caller. */
export function noteCaller(identityUid: string | undefined): void {
  const r = records.getStore();
  if (r && identityUid) r.caller = identityUid;
}
