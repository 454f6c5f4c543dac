// Where the S3 blob store keeps things in its bucket, under its prefix:
//   blobs/<algorithm>/<first 2 hex>/<hex>   committed blobs (never replaced)
//   uploads/<id>/tail-<offset>              the bytes of an upload past its full parts, from <offset>
//   uploads/<id>/data                       a completed upload being verified (commit without a kept hash)
// plus S3 multipart uploads on uploads/<id>/data, holding the full parts.
// Blob keys are the filesystem's paths: content-addressed, written once.
import { type Digest, parseDigest } from '../content/digest.js';

export interface S3Location {
  bucket: string;
  /** '' or a path ending in '/'. */
  prefix: string;
}

/** `s3://BUCKET/PREFIX` → bucket and prefix; a string naming the problem when malformed. */
export function parseS3Url(url: string): S3Location | string {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (m === null) return `--blob-store must be s3://BUCKET[/PREFIX] with a valid bucket name, got ${JSON.stringify(url.slice(0, 200))}`;
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.length > 512 || !/^[A-Za-z0-9!_.*'()/-]*$/.test(prefix) || /(^|\/)\.\.?(\/|$)|\/\//.test(prefix))
    return `the prefix of --blob-store is not a plain path: ${JSON.stringify(prefix)}`;
  return { bucket: m[1], prefix: prefix === '' ? '' : `${prefix}/` };
}

export class S3Layout {
  readonly blobs: string;
  readonly uploads: string;

  constructor(readonly location: S3Location) {
    this.blobs = `${location.prefix}blobs/`;
    this.uploads = `${location.prefix}uploads/`;
  }

  blobKey(d: Digest): string {
    const c = checked(d);
    return `${this.blobs}${c.algorithm}/${c.hex.slice(0, 2)}/${c.hex}`;
  }

  /** The digest a blob key names, or undefined for any other key. */
  digestOfKey(key: string): Digest | undefined {
    const m = /^([a-z0-9]+)\/([0-9a-f]{2})\/([0-9a-f]+)$/.exec(key.slice(this.blobs.length));
    if (!key.startsWith(this.blobs) || m === null || !m[3].startsWith(m[2])) return undefined;
    return parseDigest(`${m[1]}:${m[3]}`);
  }

  /** Callers pass only ids isUploadId accepted. */
  uploadPrefix(id: string): string {
    return `${this.uploads}${id}/`;
  }

  uploadData(id: string): string {
    return `${this.uploadPrefix(id)}data`;
  }

  tail(id: string, offset: number): string {
    return `${this.uploadPrefix(id)}tail-${offset}`;
  }

  /** The upload id a key under uploads/ belongs to, or undefined. */
  uploadIdOfKey(key: string): string | undefined {
    if (!key.startsWith(this.uploads)) return undefined;
    return /^([0-9a-f]{32})\//.exec(key.slice(this.uploads.length))?.[1];
  }
}

/** A Digest can be built by hand: only one parseDigest would return names a key. */
function checked(d: Digest): Digest {
  const parsed = typeof d?.text === 'string' ? parseDigest(d.text) : undefined;
  if (parsed === undefined || parsed.algorithm !== d.algorithm || parsed.hex !== d.hex) throw new TypeError('not a valid digest');
  return parsed;
}
