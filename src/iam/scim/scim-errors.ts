// The errors of the SCIM listener, as RFC 7644 §3.12 shapes them: an HTTP
// status, an optional scimType and a detail. Like the OCI listener's list,
// they have their own wire form (scim-routes.ts renders them); each is made
// by name here.

export const SCIM_ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    return { schemas: [SCIM_ERROR_URN], status: String(this.status), ...(this.scimType ? { scimType: this.scimType } : {}), detail: this.detail };
  }
}

/** No token, a token that is not this provider's live SCIM token, or no such provider: one answer for all. */
export const scimUnauthorized = () => new ScimError(401, 'a valid SCIM bearer token of this identity provider is required');
export const scimDisabled = () => new ScimError(403, 'SCIM provisioning is turned off for this identity provider (SetScimEnabled)');
export const scimNotFound = (what: string, id: string) => new ScimError(404, `${what} ${JSON.stringify(id)} not found`);
export const scimInvalidFilter = (why: string) => new ScimError(400, why, 'invalidFilter');
export const scimInvalidSyntax = (why: string) => new ScimError(400, why, 'invalidSyntax');
export const scimInvalidValue = (why: string) => new ScimError(400, why, 'invalidValue');
export const scimInvalidPath = (why: string) => new ScimError(400, why, 'invalidPath');
export const scimNoTarget = (why: string) => new ScimError(400, why, 'noTarget');
export const scimMutability = (why: string) => new ScimError(400, why, 'mutability');
export const scimTooMany = (why: string) => new ScimError(400, why, 'tooMany');
export const scimUniqueness = (why: string) => new ScimError(409, why, 'uniqueness');
export const scimConflict = (why: string) => new ScimError(409, why);
export const scimPreconditionFailed = () => new ScimError(412, 'the resource changed since the version If-Match names');
export const scimMethodNotAllowed = () => new ScimError(405, 'this endpoint does not support this method');
