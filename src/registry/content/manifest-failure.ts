// Why a manifest body was refused, in the OCI distribution error codes the
// registry listener answers with (MANIFEST_INVALID for a body that is not a
// manifest Berth stores, DIGEST_INVALID for a descriptor whose digest is not
// one). `detail` is JSON the listener may send as the error's detail; it never
// echoes client strings, which may be megabytes long.
export type ManifestFailureCode = 'MANIFEST_INVALID' | 'DIGEST_INVALID';

export interface ManifestFailure {
  code: ManifestFailureCode;
  message: string;
  detail: { field?: string; mediaType?: string; contentType?: string };
}

/** Thrown inside the parser to unwind to parseManifest, which returns its failure. */
export class ManifestRejected extends Error {
  constructor(readonly failure: ManifestFailure) {
    super(failure.message);
  }
}

export function invalid(field: string, message: string): ManifestRejected {
  return new ManifestRejected({ code: 'MANIFEST_INVALID', message: `${field}: ${message}`, detail: { field } });
}
