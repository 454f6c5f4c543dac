// The API listener's routes that are not proto RPCs, described by hand
// (src/server/auth-routes.ts, /healthz, the reference itself), and the ones
// left out of the document on purpose. test/api/openapi.test.ts walks the
// listener's Fastify routes: each is a proto route, one of these, or listed
// in UNDESCRIBED_ROUTES.
import type { JsonObject } from '@bufbuild/protobuf';

export const STS_TAG = 'Tokens (STS)';
export const DISCOVERY_TAG = 'OpenID discovery';
export const SERVER_TAG = 'Server';

/** Routes served but not described here, with where they are described instead; a url ending in `/*` names every path under it. */
export const UNDESCRIBED_ROUTES: ReadonlyArray<{ method: string; url: string; why: string }> = [
  { method: '*', url: '/scim/v2/*', why: 'the SCIM 2.0 server: its own protocol (RFC 7644), authenticated by a provider SCIM token (docs/scim.md)' },
  { method: 'GET', url: '/', why: 'the web console (docs/console.md): its page' },
  { method: 'GET', url: '/ui', why: 'the web console: its client routes answer its page' },
  { method: 'GET', url: '/ui/*', why: 'the web console: its client routes answer its page' },
  { method: 'GET', url: '/assets/*', why: "the web console's scripts and styles" },
  { method: 'GET', url: '/favicon.svg', why: "the web console's icon" },
  { method: 'GET', url: '/metrics', why: 'Prometheus metrics in the text exposition format (docs/operations.md)' },
];

/** Whether a served route is one of UNDESCRIBED_ROUTES. */
export function undescribed(method: string, url: string): boolean {
  return UNDESCRIBED_ROUTES.some(
    (u) => (u.method === '*' || u.method === method) && (u.url === url || (u.url.endsWith('/*') && url.startsWith(u.url.slice(0, -1)))),
  );
}

const str = { type: 'string' };
const strings = { type: 'array', items: str };
const query = (name: string, schema: JsonObject, description: string): JsonObject => ({ name, in: 'query', schema, description });
const json = (schema: JsonObject, description: string): JsonObject => ({ description, content: { 'application/json': { schema } } });
const error = { $ref: '#/components/responses/Error' };

const tokenPair = { type: 'object', properties: { token: str, refreshToken: str, expiry: { type: 'string', format: 'date-time' } } };

const exchangeParameters = [
  query('identity', str, "The uid of the identity to act as; without it, the identities whose exact issuer and subject are the assertion's."),
  query('aud', strings, 'Audiences of the token (repeatable, also `aud[]`): the API URL (default) or the registry host.'),
  query('cap', strings, 'Narrow the token to these capabilities (repeatable, also `cap[]`).'),
  query('scopes', strings, 'Narrow the token to these group uids (repeatable, also `scopes[]`; `scope` is the old single form).'),
  query('identityProvider', str, 'Exchange an ID token of this identity provider (a uid) for its user.'),
];

const exchange = (method: string): JsonObject => ({
  operationId: `sts.exchange.${method}`,
  summary: 'Exchange an assertion for a token',
  description:
    "The bearer credential is the assertion: a static-keys identity's self-signed JWT or an external OIDC ID token of a claim-match identity. Parameters in the query or, for POST, a form body.",
  tags: [STS_TAG],
  security: [{ assertion: [] }],
  parameters: exchangeParameters,
  ...(method === 'post'
    ? { requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: true } } } } }
    : {}),
  responses: { '200': json(tokenPair, 'A Berth token, its refresh token and expiry'), default: error },
});

const form = (properties: JsonObject): JsonObject => ({
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties } } },
});

/** The path items of the non-proto routes. */
export const HTTP_PATHS: Readonly<Record<string, JsonObject>> = {
  '/.well-known/openid-configuration': {
    get: {
      operationId: 'oidc.discovery',
      summary: 'OpenID Connect discovery',
      description: 'Berth is an OIDC issuer; when the registry runs, `berth_registry_url` and `berth_registry_audience` name it.',
      tags: [DISCOVERY_TAG],
      security: [],
      responses: { '200': json({ type: 'object', properties: { issuer: str, jwks_uri: str }, additionalProperties: true }, 'The discovery document') },
    },
  },
  '/.well-known/jwks.json': {
    get: {
      operationId: 'oidc.jwks',
      summary: "The issuer's public keys",
      tags: [DISCOVERY_TAG],
      security: [],
      responses: { '200': json({ type: 'object', properties: { keys: { type: 'array', items: { type: 'object' } } } }, 'A JWK set') },
    },
  },
  '/sts/exchange': { get: exchange('get'), post: exchange('post') },
  '/sts/exchange_refresh_token': {
    post: {
      operationId: 'sts.exchangeRefreshToken',
      summary: 'Rotate a refresh token',
      description: "The bearer credential is the refresh token; the new pair keeps its chain's audience and narrowing.",
      tags: [STS_TAG],
      security: [{ refreshToken: [] }],
      parameters: [query('aud', strings, 'Audiences (repeatable, also `aud[]`).')],
      responses: {
        '200': json({ type: 'object', properties: { token: tokenPair, refreshToken: tokenPair } }, 'The new token and refresh token'),
        default: error,
      },
    },
  },
  '/sts/login_settings': {
    get: {
      operationId: 'sts.loginSettings',
      summary: "What a client needs to start an identity provider's sign in",
      tags: [STS_TAG],
      security: [],
      parameters: [query('identityProvider', str, 'The identity provider uid.')],
      responses: {
        '200': json({ type: 'object', additionalProperties: true }, "The provider's issuer, client id and scopes (never its secret)"),
        default: error,
      },
    },
  },
  '/sts/login_authorize': {
    get: {
      operationId: 'sts.loginAuthorize',
      summary: "An identity provider's authorization URL for a browser",
      description:
        "Berth reads the provider's discovery document and answers the URL to send the browser to (the web console's sign in). The redirect URI must be a loopback address or the console's own callback.",
      tags: [STS_TAG],
      security: [],
      parameters: [
        query('identityProvider', str, 'The identity provider (a uid).'),
        query('redirectUri', str, 'Where the provider sends the browser back: loopback, or `<public URL>/ui/callback`.'),
        query('state', str, 'Opaque state, returned by the provider.'),
        query('nonce', str, 'The nonce the ID token must carry.'),
        query('codeChallenge', str, 'The PKCE S256 code challenge.'),
      ],
      responses: { '200': json({ type: 'object', properties: { authorizationUrl: str } }, 'The URL to send the browser to'), default: error },
    },
  },
  '/sts/login': {
    post: {
      operationId: 'sts.login',
      summary: 'Sign in with an authorization code',
      description: 'Berth redeems the code of the authorization-code flow (with PKCE) at the provider and signs the user in.',
      tags: [STS_TAG],
      security: [],
      requestBody: form({ identityProvider: str, code: str, codeVerifier: str, redirectUri: str, nonce: str }),
      responses: {
        '200': json(
          { type: 'object', properties: { ...tokenPair.properties, identity: str, name: str, registered: { type: 'boolean' } } },
          'The token pair and who signed in',
        ),
        default: error,
      },
    },
  },
  '/sts/revoke_refresh_token': {
    post: {
      operationId: 'sts.revokeRefreshToken',
      summary: "Sign out: revoke a refresh token's chain",
      description: 'Always `{}`, whether or not the token was live (RFC 7009).',
      tags: [STS_TAG],
      security: [{ refreshToken: [] }],
      responses: { '200': json({ type: 'object' }, 'Revoked'), default: error },
    },
  },
  '/readyz': {
    get: {
      operationId: 'server.readyz',
      summary: 'Readiness',
      description:
        'Ready when the database answers, its migrations are done and the blob store answers (each checked within 2 s); 503 names what is not ready.',
      tags: [SERVER_TAG],
      security: [],
      responses: {
        '200': json({ type: 'object', properties: { status: { const: 'ready' } } }, 'Ready to serve'),
        '503': json(
          {
            type: 'object',
            properties: { status: { const: 'unavailable' }, failing: { type: 'array', items: { enum: ['database', 'migrations', 'blob_store'] } } },
          },
          'Something is not ready: `failing` names it',
        ),
      },
    },
  },
  '/healthz': {
    get: {
      operationId: 'server.healthz',
      summary: 'Liveness',
      description: '`ok`; `degraded` while writes fail for lack of space; 503 `unavailable` when the database cannot be read.',
      tags: [SERVER_TAG],
      security: [],
      responses: {
        '200': json({ type: 'object', properties: { status: { enum: ['ok', 'degraded'] } } }, 'Serving'),
        '503': json({ type: 'object', properties: { status: { const: 'unavailable' } } }, 'The database cannot be read'),
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'server.openapi',
      summary: 'This document',
      tags: [SERVER_TAG],
      security: [],
      responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1') },
    },
  },
  '/docs': {
    get: {
      operationId: 'server.docs',
      summary: 'This document rendered (Redoc, served from this server)',
      tags: [SERVER_TAG],
      security: [],
      responses: { '200': { description: 'An HTML page', content: { 'text/html': { schema: str } } } },
    },
  },
  '/docs/redoc.standalone.js': {
    get: {
      operationId: 'server.docsScript',
      summary: "The reference page's script",
      tags: [SERVER_TAG],
      security: [],
      responses: { '200': { description: 'Redoc', content: { 'text/javascript': { schema: str } } } },
    },
  },
};
