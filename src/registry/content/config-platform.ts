// The platform of a single-architecture image lives in its config blob, not
// in the manifest. The registry listener reads the (small) config blob when a
// manifest is pushed and passes what this returns to putManifest, so the
// platform queries answer from the database alone. A config is opaque to the
// registry (any media type, any content): anything unreadable is "unknown",
// never a reason to refuse the push.
import { isObject, isPlatformWord, type Platform } from './descriptor.js';
import { DOCKER_CONFIG, OCI_CONFIG } from './media-types.js';

/** Config blobs larger than this are not read for a platform. */
export const MAX_CONFIG_READ = 1024 * 1024;

/** Whether a config of this media type names a platform (OCI and Docker image configs). */
export function configHasPlatform(mediaType: string): boolean {
  return mediaType === OCI_CONFIG || mediaType === DOCKER_CONFIG;
}

/** The os/architecture/variant an image config declares, or undefined. */
export function configPlatform(bytes: Uint8Array): Platform | undefined {
  if (bytes.byteLength > MAX_CONFIG_READ) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (!isObject(doc)) return undefined;
  const os = Object.hasOwn(doc, 'os') ? doc.os : undefined;
  const architecture = Object.hasOwn(doc, 'architecture') ? doc.architecture : undefined;
  if (!isPlatformWord(os) || !isPlatformWord(architecture)) return undefined;
  const variant = Object.hasOwn(doc, 'variant') ? doc.variant : undefined;
  return isPlatformWord(variant) ? { os, architecture, variant } : { os, architecture };
}
