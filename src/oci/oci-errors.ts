// The registry's errors, in the OCI distribution spec's shape:
// {"errors":[{"code","message","detail"}]}. Each code is declared once here
// with its HTTP status (as distribution/distribution registers them); handlers
// throw OciError and the listener renders it. Causes of unexpected failures
// are logged by the listener, never put in a body. docs/registry.md lists
// these codes; a test keeps the two equal.

export const OCI_ERROR_CODES = {
  BLOB_UNKNOWN: { status: 404, message: 'blob unknown to registry' },
  BLOB_UPLOAD_INVALID: { status: 400, message: 'blob upload invalid' },
  BLOB_UPLOAD_UNKNOWN: { status: 404, message: 'blob upload unknown to registry' },
  DIGEST_INVALID: { status: 400, message: 'provided digest did not match uploaded content' },
  MANIFEST_BLOB_UNKNOWN: { status: 400, message: 'manifest references a blob unknown to registry' },
  MANIFEST_INVALID: { status: 400, message: 'manifest invalid' },
  MANIFEST_UNKNOWN: { status: 404, message: 'manifest unknown' },
  NAME_INVALID: { status: 400, message: 'invalid repository name' },
  NAME_UNKNOWN: { status: 404, message: 'repository name not known to registry' },
  SIZE_INVALID: { status: 400, message: 'provided length did not match content length' },
  UNAUTHORIZED: { status: 401, message: 'authentication required' },
  DENIED: { status: 403, message: 'requested access to the resource is denied' },
  UNSUPPORTED: { status: 405, message: 'the operation is unsupported' },
  TOOMANYREQUESTS: { status: 429, message: 'too many requests' },
  // distribution's own codes beyond the spec's list
  RANGE_INVALID: { status: 416, message: 'invalid content range' },
  UNKNOWN: { status: 500, message: 'unknown error' },
  UNAVAILABLE: { status: 503, message: 'service unavailable' },
  // Berth's one extension: a query parameter, scope or form field that does not parse
  REQUEST_INVALID: { status: 400, message: 'the request is not valid' },
} as const satisfies Record<string, { status: number; message: string }>;

export type OciErrorCode = keyof typeof OCI_ERROR_CODES;

/** Seconds a client is asked to wait after UNAVAILABLE. */
export const OCI_RETRY_AFTER_SECONDS = 1;

export interface OciErrorOptions {
  /** Overrides the code's usual status (e.g. 413 for a body over the limit). */
  status?: number;
  /** Extra response headers (WWW-Authenticate, Retry-After, Range…). */
  headers?: Record<string, string>;
}

/** What a registry handler throws; the listener renders it as the spec's body. */
export class OciError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** OAuth2 error fields (RFC 6749 §5.2) added to the body of a POST /token failure. */
  oauth?: { error: string; description: string };

  constructor(
    readonly code: OciErrorCode,
    message: string = OCI_ERROR_CODES[code].message,
    readonly detail?: unknown,
    opts: OciErrorOptions = {},
  ) {
    super(message);
    this.name = 'OciError';
    this.status = opts.status ?? OCI_ERROR_CODES[code].status;
    this.headers = { ...(opts.headers ?? {}) };
    if (code === 'UNAVAILABLE' && !('retry-after' in this.headers)) this.headers['retry-after'] = String(OCI_RETRY_AFTER_SECONDS);
  }

  /** The response body: one error in the spec's list. */
  body(): { errors: Array<{ code: string; message: string; detail?: unknown }>; error?: string; error_description?: string } {
    const errors = [{ code: this.code, message: this.message, ...(this.detail === undefined ? {} : { detail: this.detail }) }];
    return this.oauth ? { errors, error: this.oauth.error, error_description: this.oauth.description } : { errors };
  }
}

/** A write refused for lack of space: 507 with the spec's body and Retry-After (UNAVAILABLE), so clients retry later. */
export function outOfStorage(message = 'the server is out of storage; retry later', detail?: unknown): OciError {
  return new OciError('UNAVAILABLE', message, detail, { status: 507 });
}

export function isOciError(err: unknown): err is OciError {
  return err instanceof OciError;
}
