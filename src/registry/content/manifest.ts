// Reads a pushed manifest body into what the registry stores and checks:
// its format, the blobs and child manifests it needs in the repo, its
// subject and artifact type (for the referrers API) and its annotations.
// Pure: no database, no blob store. The caller bounds the body's size (4 MiB,
// distribution's default); the parser bounds the number of descriptors.
import { annotationsField, artifactTypeField, type Descriptor, descriptorField, isObject, type JsonObject, own } from './descriptor.js';
import { invalid, type ManifestFailure, ManifestRejected } from './manifest-failure.js';
import { manifestMediaType } from './manifest-media-type.js';
import { EXTERNAL_LAYERS, isIndexMediaType, isOciMediaType, type ManifestMediaType } from './media-types.js';

/** Layers plus index entries one manifest may list. */
export const MAX_DESCRIPTORS = 10_000;

export interface ParsedManifest {
  mediaType: ManifestMediaType;
  /** `image`: a config and layers (OCI manifest, Docker schema 2); `index`: other manifests (OCI index, Docker list). */
  kind: 'image' | 'index';
  /**
   * The type the referrers API reports (distribution spec, "Listing
   * Referrers"): the manifest's `artifactType`; else, for an OCI image
   * manifest, its config's media type; else none (indexes, Docker formats).
   */
  artifactType?: string;
  /** Digest of the `subject` descriptor (OCI formats only); it need not exist. */
  subject?: string;
  /** Images only. */
  config?: Descriptor;
  /** Images only: every layer, in order, including ones served from elsewhere. */
  layers: Descriptor[];
  /** Indexes only: the child manifests, in order, with their platforms. */
  manifests: Descriptor[];
  annotations?: Record<string, string>;
  /** What the repo must already hold: the config and every layer not fetched from its `urls`. */
  blobs: Descriptor[];
}

export type ParseResult = { ok: true; manifest: ParsedManifest } | { ok: false; failure: ManifestFailure };

function descriptors(v: unknown, field: string, withPlatform: boolean): Descriptor[] {
  if (v === undefined || v === null) return []; // REQUIRED by the spec, but distribution stores a manifest without it
  if (!Array.isArray(v)) throw invalid(field, 'must be an array of descriptors');
  if (v.length > MAX_DESCRIPTORS) throw invalid(field, `at most ${MAX_DESCRIPTORS} descriptors`);
  return v.map((d, i) => descriptorField(d, `${field}[${i}]`, withPlatform));
}

function present(o: JsonObject, key: string): boolean {
  const v = own(o, key);
  return v !== undefined && v !== null;
}

function decode(bytes: Uint8Array): JsonObject {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalid('body', 'must be JSON in UTF-8');
  }
  if (!isObject(doc)) throw invalid('body', 'must be a JSON object');
  return doc;
}

function read(bytes: Uint8Array, contentType: string | undefined): ParsedManifest {
  const doc = decode(bytes);
  const mediaType = manifestMediaType(contentType, own(doc, 'mediaType'));
  if (own(doc, 'schemaVersion') !== 2) throw invalid('schemaVersion', 'must be 2');
  const oci = isOciMediaType(mediaType);
  const out: ParsedManifest = { mediaType, kind: isIndexMediaType(mediaType) ? 'index' : 'image', layers: [], manifests: [], blobs: [] };
  if (out.kind === 'index') {
    // distribution refuses an OCI body of one kind sent as the other.
    if (oci && (present(doc, 'config') || present(doc, 'layers'))) throw invalid('body', 'expected an index but found a manifest (config or layers)');
    out.manifests = descriptors(own(doc, 'manifests'), 'manifests', true);
  } else {
    if (oci && present(doc, 'manifests')) throw invalid('body', 'expected a manifest but found an index (manifests)');
    if (!present(doc, 'config')) throw invalid('config', 'is required');
    out.config = descriptorField(own(doc, 'config'), 'config');
    out.layers = descriptors(own(doc, 'layers'), 'layers', false);
    const fetchedElsewhere = (l: Descriptor) => EXTERNAL_LAYERS.has(l.mediaType) && (l.urls?.length ?? 0) > 0;
    out.blobs = [out.config, ...out.layers.filter((l) => !fetchedElsewhere(l))];
  }
  if (!oci) return out; // Docker formats have no subject, artifactType or annotations
  const artifactType = artifactTypeField(own(doc, 'artifactType'), 'artifactType') ?? (out.kind === 'image' ? out.config?.mediaType : undefined);
  if (artifactType !== undefined) out.artifactType = artifactType;
  if (present(doc, 'subject')) out.subject = descriptorField(own(doc, 'subject'), 'subject').digest;
  const annotations = annotationsField(own(doc, 'annotations'), 'annotations');
  if (annotations !== undefined) out.annotations = annotations;
  return out;
}

/** The manifest in `bytes`, pushed with `contentType` (the request's header, if any), or why it is refused. */
export function parseManifest(bytes: Uint8Array, contentType: string | undefined): ParseResult {
  try {
    return { ok: true, manifest: read(bytes, contentType) };
  } catch (err) {
    if (err instanceof ManifestRejected) return { ok: false, failure: err.failure };
    throw err;
  }
}
