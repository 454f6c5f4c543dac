// Returns a request's id in its answer's X-Request-Id header. Not through
// res.setHeader: a header set before the handler's writeHead(status, headers)
// sends every one of the handler's headers through Node's one-at-a-time path
// (validated, lower-cased and stored singly) instead of writing them as given,
// a visible share of the observability's cost per request
// (docs/performance.md). The id is added to the headers writeHead is given
// instead; a response written without writeHead (an implicit header) goes
// through writeHead too, and gets it there.
import type http from 'node:http';
import type http2 from 'node:http2';

type Res = http.ServerResponse | http2.Http2ServerResponse;
type WriteHead = (this: never, status: number, ...rest: unknown[]) => Res;

const ID = Symbol('berth.requestId');
const WRITE_HEAD = Symbol('berth.writeHead');
interface Marked {
  [ID]: string;
  [WRITE_HEAD]: WriteHead;
  writeHead: WriteHead;
}

const HEADER = 'x-request-id';

function withId(headers: unknown, id: string): unknown {
  if (headers === undefined || headers === null) return { [HEADER]: id };
  if (Array.isArray(headers)) return Array.isArray(headers[0]) ? [...headers, [HEADER, id]] : [...headers, HEADER, id];
  // A copy: the caller's object may be shared between answers.
  return typeof headers === 'object' ? { ...headers, [HEADER]: id } : headers;
}

function writeHeadWithId(this: Marked, status: number, ...rest: unknown[]): Res {
  const id = this[ID];
  if (typeof rest[0] === 'string') return this[WRITE_HEAD].call(this as never, status, rest[0], withId(rest[1], id)); // (status, reason, headers)
  return this[WRITE_HEAD].call(this as never, status, withId(rest[0], id));
}

/** Makes `res` answer with `id` in X-Request-Id, whichever way its header is written. */
export function answerWithRequestId(res: Res, id: string): void {
  const marked = res as unknown as Marked;
  marked[ID] = id;
  marked[WRITE_HEAD] = marked.writeHead;
  marked.writeHead = writeHeadWithId as WriteHead;
}
