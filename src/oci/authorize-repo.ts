// Bearer auth on the registry's repository routes. Two kinds of token are
// accepted, both from Berth's issuer with aud = the registry host:
//  - a registry token from /token: its `access` claim must cover the name and
//    action, AND the identity's current grants must still allow it (a revoked
//    binding or a deleted identity counts on the very next request);
//  - an identity's own registry-audience token (`berth auth token --audience
//    <registry host>`): the action is checked against current grants.
// A Berth token for another audience (the API URL) is 403 DENIED, as the
// contract says. No or a bad token is 401 with the challenge; a token that
// does not cover the request is 401 too, with error="insufficient_scope", as
// distribution answers, so docker and skopeo fetch a new token for the scope.
// Permission is decided before any handler reads the repository, and the
// answer is the same whether or not the repository exists.
import type { AccessDirectory } from '../auth/access-directory.js';
import { Caller } from '../auth/caller.js';
import { noteCaller, requestRecordOf } from '../core/request-record.js';
import { narrowingOf, type TokenNarrowing } from '../auth/token-narrowing.js';
import type { Issuer, VerifiedToken } from '../auth/issuer.js';
import { repoNameViolation } from '../registry/names.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { Executor } from '../store/transact.js';
import { unauthorized } from './challenge.js';
import { OciError } from './oci-errors.js';
import type { RegistryConfig } from './registry-config.js';
import { accessClaimOf, type TokenAccessEntry } from './registry-token.js';
import { grantedRepoActions } from './repo-permissions.js';
import { resolveRepoTarget, type RepoTarget } from './repo-target.js';
import { REPO_ACTIONS, type RepoAction } from './token-scope.js';

/** What a request may do on one repository, once authorized. */
export interface RegistryAccess {
  /** The identity uid; "" for an anonymous registry token. */
  subject: string;
  /** The repository, its organization and repo uid (undefined when it does not exist). */
  target: RepoTarget;
  /** Every action the request's token allows on this repository now (includes the one checked). */
  actions: readonly RepoAction[];
  /** When set, pull reaches only these tags and the content they point to (the public organization's free tier). */
  pullTags?: readonly string[];
}

export interface RepoAuthDeps {
  config: RegistryConfig;
  issuer: Issuer;
  access: AccessDirectory;
  db: Executor;
  /** Every audience Berth mints tokens for: a valid token for one that is not the registry's is DENIED, not UNAUTHORIZED. */
  knownAudiences: readonly string[];
  /** Told of a push or delete refused to an identity, for the audit log (at: the repo, else its organization). */
  onRefused?: (r: { identity: string; at: string; action: RepoAction; name: string; address: string }) => Promise<void>;
}

/** The header a route reads credentials from. */
export interface AuthorizationSource {
  headers: { authorization?: string };
  /** The caller's address (Fastify's request.ip), for the audit log. */
  ip?: string;
  /** The raw request, whose record takes the caller for the access log. */
  raw?: object;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The verified registry-audience token of a request; throws the 401/403 a registry answers. */
export async function verifiedRegistryToken(
  request: AuthorizationSource,
  deps: RepoAuthDeps,
  scope?: { name: string; actions: RepoAction[] },
): Promise<VerifiedToken> {
  const m = BEARER.exec(request.headers.authorization ?? '');
  if (!m) throw unauthorized(deps.config, 'authentication required', scope);
  let verified: VerifiedToken;
  try {
    verified = await deps.issuer.verify(m[1], deps.knownAudiences);
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err;
    throw unauthorized(deps.config, 'the bearer token is invalid or expired', scope, 'invalid_token');
  }
  if (!verified.audience.includes(deps.config.host)) {
    throw new OciError('DENIED', `the token is not for this registry: its audience must be ${deps.config.host}`);
  }
  return verified;
}

/** The caller behind a verified token: anonymous registry tokens have no identity; others must still exist. */
async function callerOf(
  request: AuthorizationSource,
  verified: VerifiedToken,
  deps: RepoAuthDeps,
  scope?: { name: string; actions: RepoAction[] },
): Promise<Caller> {
  if (verified.subject === '') {
    if (accessClaimOf(verified.claims) === undefined) throw unauthorized(deps.config, 'the bearer token has no subject', scope, 'invalid_token');
    return new Caller('');
  }
  const state = await deps.access.load(verified.subject);
  if (!state.exists) throw unauthorized(deps.config, 'the identity this token was issued to no longer exists', scope, 'invalid_token');
  let narrowing: TokenNarrowing;
  try {
    narrowing = narrowingOf(verified.claims);
  } catch {
    throw unauthorized(deps.config, 'the bearer token is malformed', scope, 'invalid_token');
  }
  if (request.raw) noteCaller(requestRecordOf(request.raw), verified.subject); // for the access log
  return new Caller(verified.subject, state, narrowing);
}

/** The `access` entries of a registry token for this repository, merged. */
function tokenEntry(entries: readonly TokenAccessEntry[], name: string): { actions: RepoAction[]; pullTags?: string[] } {
  const mine = entries.filter((e) => e.type === 'repository' && e.name === name);
  const actions = REPO_ACTIONS.filter((a) => mine.some((e) => e.actions.includes(a)));
  // Several entries for one name come from one grant, so their restrictions agree; keep the first.
  const pullTags = mine.find((e) => e.pull_tags)?.pull_tags;
  return pullTags ? { actions, pullTags } : { actions };
}

/** Authorizes `action` on repository `name`; throws the OciError to answer otherwise. */
export async function authorizeRepo(request: AuthorizationSource, name: string, action: RepoAction, deps: RepoAuthDeps): Promise<RegistryAccess> {
  const bad = repoNameViolation(name);
  if (bad) throw new OciError('NAME_INVALID', undefined, { name: name.slice(0, 300), reason: bad.description });
  const scope = { name, actions: [action] };
  const verified = await verifiedRegistryToken(request, deps, scope);
  const caller = await callerOf(request, verified, deps, scope);
  const claimed = accessClaimOf(verified.claims);
  const fromToken = claimed === undefined ? undefined : tokenEntry(claimed, name);
  const target = await resolveRepoTarget(deps.db, name);
  const refused = async (message: string): Promise<never> => {
    const at = target.repoUid ?? target.orgUid;
    if (action !== 'pull' && caller.identityUid !== '' && at !== undefined && deps.onRefused) {
      await deps.onRefused({ identity: caller.identityUid, at, action, name, address: request.ip ?? '' });
    }
    throw unauthorized(deps.config, message, scope, 'insufficient_scope');
  };
  if (fromToken && !fromToken.actions.includes(action)) await refused(`the token does not allow ${action} on ${name}`);
  const live = await grantedRepoActions(caller, target, fromToken?.actions ?? REPO_ACTIONS, deps.config.publicOrg);
  if (!live.actions.includes(action)) await refused(`${action} on ${name} is not allowed`);
  // A token never reaches further than when it was issued, nor than the caller may now.
  const pullTags = fromToken?.pullTags ?? live.pullTags;
  return { subject: caller.identityUid, target, actions: live.actions, ...(pullTags ? { pullTags } : {}) };
}

/** Any valid registry-audience token of an existing identity (or an anonymous registry token): the check of `/v2/`. */
export async function authenticateRegistry(request: AuthorizationSource, deps: RepoAuthDeps): Promise<Caller> {
  return callerOf(request, await verifiedRegistryToken(request, deps), deps);
}
