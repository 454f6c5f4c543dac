// The answer to a request Node's HTTP/1.1 parser rejects before any route
// runs: malformed (400), headers too large (431) or too slow to arrive (408).
// Fastify's default writes these without `Connection: close` and drops the
// socket at once: a client may then reuse the dead connection for its next
// request, and one still sending a body gets a reset instead of the answer.
// So the answer says the connection closes, and input is read and dropped for
// a moment before it does.
import http from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection that was answered this way is still read from. */
const LINGER_MS = 2000;

/** The JSON body of such an answer, in the listener's own error shape (the API's, the registry's). */
export type ClientErrorBody = (status: number, field: string, description: string) => string;

export function answerClientErrorWith(render: ClientErrorBody): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => answerWith(render, err, socket);
}

function answerWith(render: ClientErrorBody, err: Error & { code?: string }, socket: Socket): void {
  if (socket.writableEnded) return; // answered already; the parser reports each further chunk
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, field, description] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers', 'the request line and headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request', 'the request did not arrive in the time allowed']
        : [400, 'request', 'the request is not valid HTTP/1.1'];
  const body = render(status as number, field as string, description as string);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
