// Reads a request body the registry needs whole (a manifest), refusing more
// than the route's limit with 413 before or while it arrives. Bodies of other
// routes (blobs) are never buffered: the listener leaves request.raw to them.
// What is left unread is drained (up to a bound) after the answer is sent.
import type http from 'node:http';
import { OciError } from './oci-errors.js';

/** The largest manifest accepted (as distribution's default). */
export const MANIFEST_BODY_LIMIT = 4 * 1024 * 1024;

function tooLarge(limit: number): OciError {
  return new OciError('SIZE_INVALID', `the request body exceeds ${limit} bytes`, { limit }, { status: 413 });
}

export async function readBoundedBody(raw: http.IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(raw.headers['content-length'] ?? 'NaN');
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise<Buffer>((resolve, reject) => {
    const cleanup = () => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        raw.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      reject(new OciError('SIZE_INVALID', 'the request body ended early'));
    };
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onError);
    raw.on('close', onClose);
  });
}
