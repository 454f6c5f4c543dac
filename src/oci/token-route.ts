// The Docker token service at /token. GET (token.md): credentials by HTTP
// Basic (or Bearer), several `scope` parameters; `service`, `account` and
// `client_id` are accepted and ignored, since the token's audience is always
// this registry. POST (oauth.md, what containerd sends when it has a
// password): a form with grant_type=password, username, password and a
// space-separated `scope`. The refresh_token grant (and any other) is
// answered 400 unsupported_grant_type: Berth issues no refresh tokens, and
// containerd then falls back to GET. What is granted is the subset of each
// requested scope the caller holds now; asking for more is not an error.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OciError } from './oci-errors.js';
import type { RegistryContext } from './registry-context.js';
import { mintRegistryToken, type TokenAccessEntry } from './registry-token.js';
import { grantedRepoActions } from './repo-permissions.js';
import { resolveRepoTarget } from './repo-target.js';
import type { Caller } from '../auth/caller.js';
import { passwordCaller, tokenRequestCaller, type CredentialDeps } from './token-credentials.js';
import { parseScopes, requestedRepoActions } from './token-scope.js';

const FORM_LIMIT = 64 * 1024;

async function accessFor(ctx: RegistryContext, caller: Caller, scopeValues: readonly string[]): Promise<TokenAccessEntry[]> {
  const out: TokenAccessEntry[] = [];
  for (const s of parseScopes(scopeValues)) {
    const base = { type: s.type, ...(s.class ? { class: s.class } : {}), name: s.name };
    if (s.type !== 'repository') {
      out.push({ ...base, actions: [] }); // registry:catalog:* and the like: nothing is granted
      continue;
    }
    const target = await resolveRepoTarget(ctx.runtime.store.db, s.name);
    const grant = await grantedRepoActions(caller, target, requestedRepoActions(s.actions), ctx.config.publicOrg);
    out.push({ ...base, actions: grant.actions, ...(grant.pullTags ? { pull_tags: [...grant.pullTags] } : {}) });
  }
  return out;
}

async function issue(ctx: RegistryContext, caller: Caller, scopeValues: readonly string[]) {
  const access = await accessFor(ctx, caller, scopeValues);
  const minted = await mintRegistryToken(ctx.runtime.issuer, ctx.config.host, caller.identityUid, access);
  const granted = access.filter((a) => a.actions.length > 0).map((a) => `${a.type}:${a.name}:${a.actions.join(',')}`);
  return { minted, granted };
}

function noNul(values: readonly (string | undefined)[]): void {
  if (values.some((v) => v?.includes('\u0000'))) throw new OciError('REQUEST_INVALID', 'parameters must not contain NUL');
}

export async function tokenRoutes(app: FastifyInstance, ctx: RegistryContext): Promise<void> {
  const deps: CredentialDeps = { issuer: ctx.runtime.issuer, access: ctx.runtime.access, identities: ctx.runtime.identities, audience: ctx.config.host };
  // Only this plugin's routes parse forms; elsewhere bodies stay streams.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_r, body, done) => done(null, body));

  app.get('/token', async (request: FastifyRequest, reply: FastifyReply) => {
    const query = new URL(request.url, 'http://registry.invalid').searchParams;
    noNul([...query.values()]);
    const caller = await tokenRequestCaller(request.headers.authorization, deps);
    const { minted } = await issue(ctx, caller, query.getAll('scope'));
    return reply.header('cache-control', 'no-store').send({
      token: minted.token,
      access_token: minted.token,
      expires_in: minted.expiresIn,
      issued_at: minted.issuedAt.toISOString(),
    });
  });

  app.post('/token', async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      if (typeof request.body !== 'string') throw oauthError(400, 'invalid_request', 'send an application/x-www-form-urlencoded body');
      const form = new URLSearchParams(request.body);
      noNul([...form.values()]);
      const grant = form.get('grant_type') ?? '';
      if (grant !== 'password') throw oauthError(400, 'unsupported_grant_type', 'only grant_type=password is supported; use GET /token otherwise');
      const username = form.get('username');
      const password = form.get('password');
      if (!username || !password) throw oauthError(400, 'invalid_request', 'grant_type=password needs username and password');
      const caller = await passwordCaller(username, password, deps);
      const { minted, granted } = await issue(ctx, caller, form.getAll('scope'));
      return reply.header('cache-control', 'no-store').send({
        access_token: minted.token,
        token: minted.token,
        token_type: 'Bearer',
        scope: granted.join(' '),
        expires_in: minted.expiresIn,
        issued_at: minted.issuedAt.toISOString(),
      });
    } catch (err) {
      if (err instanceof OciError && err.oauth === undefined) {
        // Bad credentials or scope: the OAuth2 error fields beside the registry's own.
        err.oauth = err.status === 401 ? { error: 'invalid_grant', description: err.message } : { error: 'invalid_request', description: err.message };
      }
      throw err;
    }
  });
}

function oauthError(status: number, error: string, description: string): OciError {
  const e = new OciError('REQUEST_INVALID', description, undefined, { status });
  e.oauth = { error, description };
  return e;
}
