// `ORG/IMAGE[:TAG|@DIGEST]`: the image a scanner report is about, as the
// registry names it. A digest names the image exactly; a tag (default
// "latest") is resolved by the registry when the report is pushed.
import { parseImageReference } from './image-reference.js';

export interface ScanTarget {
  /** ORG/IMAGE */
  name: string;
  /** A tag or a sha256 digest. */
  reference: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export function parseScanTarget(text: string): ScanTarget {
  const at = text.indexOf('@');
  if (at < 0) {
    const ref = parseImageReference(text);
    return { name: `${ref.org}/${ref.image}`, reference: ref.tag };
  }
  const digest = text.slice(at + 1);
  if (!DIGEST.test(digest)) throw new Error(`${JSON.stringify(digest.slice(0, 80))} is not a digest (sha256:<64 lowercase hex>)`);
  const ref = parseImageReference(text.slice(0, at));
  if (text.slice(0, at).lastIndexOf(':') > text.lastIndexOf('/')) throw new Error('give a tag or a digest, not both: ORG/IMAGE:TAG or ORG/IMAGE@sha256:…');
  return { name: `${ref.org}/${ref.image}`, reference: digest };
}
