// A SCIM 2.0 client as RFC 7644 §3 describes one: JSON bodies sent as
// application/scim+json with the provider's bearer token, resources at the
// endpoint the token methods return.
import { rest, type RestResult } from '../harness/api-client.js';

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

export interface ScimClient {
  (method: string, path: string, body?: unknown): Promise<RestResult>;
  endpoint: string;
}

/** `endpoint` is …/scim/v2/{provider uid}; `serverUrl` is where the test reaches the server. */
export function scimClient(serverUrl: string, endpoint: string, token: string | undefined): ScimClient {
  const path = new URL(endpoint).pathname;
  const call = (method: string, p: string, body?: unknown) =>
    rest(serverUrl, method, `${path}${p}`, {
      token,
      ...(body === undefined ? {} : { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/scim+json' } }),
    });
  return Object.assign(call, { endpoint });
}

/** Sets up SCIM on a provider as an administrator would: a token, then SCIM enabled. */
export async function enableScim(serverUrl: string, ownerToken: string, providerUid: string): Promise<{ token: string; endpoint: string }> {
  const gen = await rest(serverUrl, 'POST', `/iam/v2/identityProviders/${providerUid}:generateScimToken`, { token: ownerToken, body: {} });
  if (gen.status !== 200) throw new Error(`generateScimToken: ${gen.text}`);
  const on = await rest(serverUrl, 'POST', `/iam/v2/identityProviders/${providerUid}:setScimEnabled`, {
    token: ownerToken,
    body: { enabled: true, etag: gen.json.etag },
  });
  if (on.status !== 200) throw new Error(`setScimEnabled: ${on.text}`);
  return { token: gen.json.token, endpoint: gen.json.endpointUrl };
}

/** A provider in `group` whose new users get the viewer role. */
export async function newProvider(serverUrl: string, ownerToken: string, group: string, issuer = 'https://idp.example.com'): Promise<string> {
  const viewer = (await rest(serverUrl, 'GET', '/iam/v2/roles?name=viewer', { token: ownerToken })).json.roles[0].uid as string;
  const r = await rest(serverUrl, 'POST', `/iam/v2/identityProviders/${group}`, {
    token: ownerToken,
    body: { name: `scim-${Math.random().toString(16).slice(2, 8)}`, defaultRole: viewer, oidc: { issuer, clientId: 'berth' } },
  });
  if (r.status !== 200) throw new Error(`create provider: ${r.text}`);
  return r.json.uid as string;
}
