// Which of the four manifest formats a pushed body is, from the request's
// Content-Type and the body's own `mediaType` field. distribution/distribution
// picks the format by Content-Type and then requires the body to agree
// (OCI: "if present"; Docker schema 2 and manifest lists: always). Berth does
// the same, and, as the distribution spec lets a client leave Content-Type out
// of a body that names its type, falls back to the body's field when the
// header is absent. A Content-Type naming no format Berth stores is refused,
// as distribution refuses it, rather than guessed from the body.
import { invalid, ManifestRejected } from './manifest-failure.js';
import { DOCKER_SCHEMA1, isManifestMediaType, isOciMediaType, type ManifestMediaType } from './media-types.js';

/** The type part of a Content-Type header: parameters dropped, lowercased; undefined when empty. */
export function contentTypeOf(header: string | undefined): string | undefined {
  const t = (header ?? '').split(';')[0].trim().toLowerCase();
  return t === '' ? undefined : t;
}

function unsupported(t: string, from: 'contentType' | 'mediaType'): ManifestRejected {
  const shown = t.slice(0, 255);
  const what = DOCKER_SCHEMA1.includes(t)
    ? 'Docker schema 1 manifests are not supported; push schema 2 or OCI'
    : `unsupported manifest media type ${JSON.stringify(shown)}`;
  return new ManifestRejected({ code: 'MANIFEST_INVALID', message: what, detail: { [from]: shown } });
}

/** The format of the body; throws ManifestRejected when it cannot be told or the two sources disagree. */
export function manifestMediaType(header: string | undefined, bodyField: unknown): ManifestMediaType {
  if (bodyField !== undefined && typeof bodyField !== 'string') throw invalid('mediaType', 'must be a string');
  const body = bodyField === '' ? undefined : (bodyField as string | undefined);
  const ct = contentTypeOf(header);
  if (ct === undefined) {
    if (body === undefined) throw invalid('mediaType', 'the manifest names no media type: set Content-Type or the mediaType field');
    if (!isManifestMediaType(body)) throw unsupported(body, 'mediaType');
    return body;
  }
  if (!isManifestMediaType(ct)) throw unsupported(ct, 'contentType');
  if (body === undefined && isOciMediaType(ct)) return ct;
  if (body !== ct) {
    throw new ManifestRejected({
      code: 'MANIFEST_INVALID',
      message: `mediaType in the manifest must be ${JSON.stringify(ct)}, the request's Content-Type`,
      detail: { field: 'mediaType', contentType: ct },
    });
  }
  return ct;
}
