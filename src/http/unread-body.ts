// A handler may answer before it has read the whole request body: Connect
// stops at a message over the size limit, or at one message too many. Node
// drains an unread HTTP/1.1 body only if nothing has read from it, and the
// request stream Connect reads through is destroyed when Connect stops, after
// which Node never reads that connection again: the next request a client
// sends on it waits for ever. So the request is read without destroying it,
// and once the answer is sent the rest of its body is read and discarded (up
// to a bound, past which the connection is closed). HTTP/2 needs none of
// this: a stream that is given up is closed on its own.
import type http from 'node:http';

const MAX_DISCARDED_BYTES = 8 * 1024 * 1024;

export function discardUnreadBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.httpVersionMajor !== 1) return;
  const socket = req.socket;
  res.once('finish', () => {
    if (req.complete) return;
    if (req.destroyed) {
      socket.end();
      return;
    }
    let discarded = 0;
    const discard = () => {
      for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
        discarded += chunk.length;
        if (discarded > MAX_DISCARDED_BYTES) socket.destroy();
      }
    };
    req.on('readable', discard);
    discard();
  });
}
