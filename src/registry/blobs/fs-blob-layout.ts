// Where the filesystem blob store keeps things under its root:
//   blobs/<algorithm>/<first 2 hex>/<hex>   committed blobs (immutable)
//   uploads/<id>/data                       the bytes received so far
//   uploads/<id>/started                    when the upload began (ISO 8601)
//   uploads/<id>/size                       the bytes durably appended (acknowledged)
//   lock                                    held by the serving process (blob-root-lock.ts)
// An upload exists while its data file does; commit renames that file into
// blobs/ unless the digest is stored already, so a blob path only ever holds
// verified, complete content and is never replaced.
import { join } from 'node:path';
import { type Digest, parseDigest } from '../content/digest.js';

/** Where the server keeps the filesystem blob store: <data dir>/registry (gc opens the same). */
export function registryBlobRoot(dataDir: string): string {
  return join(dataDir, 'registry');
}

export class FsBlobLayout {
  readonly blobs: string;
  readonly uploads: string;

  constructor(readonly root: string) {
    this.blobs = join(root, 'blobs');
    this.uploads = join(root, 'uploads');
  }

  blobDir(d: Digest): string {
    return join(this.blobs, d.algorithm, checked(d).hex.slice(0, 2));
  }

  blobFile(d: Digest): string {
    return join(this.blobDir(d), d.hex);
  }

  /** Callers pass only ids isUploadId accepted. */
  uploadDir(id: string): string {
    return join(this.uploads, id);
  }

  uploadData(id: string): string {
    return join(this.uploads, id, 'data');
  }

  uploadStarted(id: string): string {
    return join(this.uploads, id, 'started');
  }

  uploadSize(id: string): string {
    return join(this.uploads, id, 'size');
  }
}

/** A Digest can be built by hand: only one parseDigest would return names a path. */
function checked(d: Digest): Digest {
  const parsed = typeof d?.text === 'string' ? parseDigest(d.text) : undefined;
  if (parsed === undefined || parsed.algorithm !== d.algorithm || parsed.hex !== d.hex) throw new TypeError('not a valid digest');
  return parsed;
}
