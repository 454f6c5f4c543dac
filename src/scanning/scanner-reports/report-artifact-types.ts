// The referrer artifact types Berth reads as scanner reports. A report is a
// referrer of the image (its subject) whose artifactType is one of these
// (for an OCI manifest without artifactType, its config's media type), with
// the report as its one layer. The first of each is what `berth images scans
// import` pushes; the others are what tools publish today:
// application/vnd.aquasecurity.trivy.report+json for Trivy JSON, and
// application/vnd.grype.report+json beside Anchore's own content type
// application/vnd.anchore.grype+json for Grype JSON. Trivy's cosign-vuln
// predicate is read when it arrives under one of these types; SARIF is not
// read (it has no package versions or fix states).
export const GRYPE_REPORT_TYPE = 'application/vnd.anchore.grype+json';
export const TRIVY_REPORT_TYPE = 'application/vnd.aquasecurity.trivy.report+json';

export const SCANNER_REPORT_ARTIFACT_TYPES: ReadonlySet<string> = new Set([GRYPE_REPORT_TYPE, 'application/vnd.grype.report+json', TRIVY_REPORT_TYPE]);

/** The largest report layer read (the bound of the JSON reader). */
export const MAX_REPORT_LAYER_BYTES = 64 * 1024 * 1024;
