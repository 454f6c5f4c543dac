// The media types the registry reads: the four manifest formats it stores
// (OCI image manifest and index, Docker schema 2 manifest and manifest list),
// and the config and layer types whose meaning changes what it checks.
// Any other config or layer type is stored as opaque, as the image spec asks.

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_MANIFEST_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';

export type ManifestMediaType = typeof OCI_MANIFEST | typeof OCI_INDEX | typeof DOCKER_MANIFEST | typeof DOCKER_MANIFEST_LIST;

/** Docker schema 1: refused (distribution v3 dropped it too), named in the message. */
export const DOCKER_SCHEMA1 = ['application/vnd.docker.distribution.manifest.v1+json', 'application/vnd.docker.distribution.manifest.v1+prettyjws'];

export const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
export const OCI_EMPTY = 'application/vnd.oci.empty.v1+json';
export const DOCKER_CONFIG = 'application/vnd.docker.container.image.v1+json';

export const OCI_LAYER = 'application/vnd.oci.image.layer.v1.tar';
export const OCI_LAYER_GZIP = 'application/vnd.oci.image.layer.v1.tar+gzip';
export const OCI_LAYER_ZSTD = 'application/vnd.oci.image.layer.v1.tar+zstd';
export const DOCKER_LAYER = 'application/vnd.docker.image.rootfs.diff.tar.gzip';

/**
 * Layers that may live outside the registry: when such a descriptor carries
 * `urls`, clients fetch it from there, so the registry does not require the
 * blob (as distribution does).
 */
export const EXTERNAL_LAYERS: ReadonlySet<string> = new Set([
  'application/vnd.oci.image.layer.nondistributable.v1.tar',
  'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip',
  'application/vnd.oci.image.layer.nondistributable.v1.tar+zstd',
  'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip',
]);

const MANIFEST_TYPES: ReadonlySet<string> = new Set([OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST, DOCKER_MANIFEST_LIST]);

export function isManifestMediaType(t: string): t is ManifestMediaType {
  return MANIFEST_TYPES.has(t);
}

/** Index formats list other manifests; the others list a config and layers. */
export function isIndexMediaType(t: ManifestMediaType): boolean {
  return t === OCI_INDEX || t === DOCKER_MANIFEST_LIST;
}

/** OCI formats may carry `subject` and `artifactType`; Docker formats have neither. */
export function isOciMediaType(t: ManifestMediaType): boolean {
  return t === OCI_MANIFEST || t === OCI_INDEX;
}

// RFC 6838 section 4.2: type "/" subtype, each a restricted-name of at most
// 127 characters starting with a letter or digit. No parameters.
const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/** A media type as descriptors and artifactType must write it (RFC 6838 names). */
export function isMediaTypeName(t: string): boolean {
  return MEDIA_TYPE.test(t);
}
