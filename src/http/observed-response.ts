// The HTTP/1 answers both listeners make (http1Server). The request id the
// observer (request-observer.ts) gives an answer is put into the headers
// `writeHead` is given rather than set before with `setHeader`: once a header
// is set that way, Node sends every header given to `writeHead` through its
// one-at-a-time path, validating each again (several µs per answer in a
// profile: docs/performance.md). A field and a method of the class, so no
// answer gets a property or a wrapper of its own. HTTP/2 answers keep
// `setHeader`.
import http from 'node:http';

const HEADER = 'x-request-id';

type Headers = http.OutgoingHttpHeaders | http.OutgoingHttpHeader[];

export class ObservedResponse<Request extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Request> {
  /** The id this answer returns, set by the request observer before any handler runs. */
  requestId: string | undefined = undefined;

  override writeHead(statusCode: number, reason?: string | Headers, headers?: Headers): this {
    const id = this.requestId;
    if (id === undefined) return super.writeHead(statusCode, reason as string, headers);
    let message: string | undefined;
    if (typeof reason === 'string') message = reason;
    else headers = reason;
    if (headers && !Array.isArray(headers) && !this.hasHeader(HEADER)) {
      // A copy: the object may be a caller's constant.
      return super.writeHead(statusCode, message as string, { ...headers, [HEADER]: id });
    }
    if (!this.hasHeader(HEADER)) this.setHeader(HEADER, id);
    return super.writeHead(statusCode, message as string, headers);
  }
}
