// The HTTP/1 requests both listeners make (http1Server), with what Berth adds
// to a request declared by its class rather than set on each request: set
// later, each addition gave requests another shape mid-flight, and Node's and
// Fastify's code that reads requests saw several.
import http from 'node:http';
import { RECORD, type RequestRecord } from '../core/request-record.js';

export class ObservedRequest extends http.IncomingMessage {
  /** The request's record (src/core/request-record.ts), when requests are observed. */
  [RECORD]: RequestRecord | undefined = undefined;

  /** Reads the body without destroying the request when the reader stops early (src/http/unread-body.ts says why). */
  override [Symbol.asyncIterator](): NodeJS.AsyncIterator<Buffer> {
    return this.iterator({ destroyOnReturn: false });
  }
}
