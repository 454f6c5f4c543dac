// Upload ids travel in URLs (/v2/<name>/blobs/uploads/<id>) and name a
// directory or object key, so they are 128 random bits as lowercase hex (no
// case folding, no separators) and are checked every time one comes back.
import { randomBytes } from 'node:crypto';

const UPLOAD_ID = /^[0-9a-f]{32}$/;

export function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

/** True only for a string shaped like an id newUploadId makes; anything else names no upload. */
export function isUploadId(id: unknown): id is string {
  return typeof id === 'string' && UPLOAD_ID.test(id);
}
