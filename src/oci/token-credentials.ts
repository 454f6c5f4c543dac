// Who is asking /token for a registry token. No credentials: anonymous. HTTP
// Basic: a username and a password, checked by the first PASSWORD_CHECKS
// entry that takes that username — today `_token` with a Berth token whose
// audience is the registry host (as `docker login -u _token`), and a
// pull-token identity's uid with the JWT its keys signed (pull-token.ts).
// Bearer: a Berth registry-audience token. Whatever the path, the identity
// must still exist. Failures are one 401 that does not say which part was
// wrong.
import type { AccessDirectory, ExchangeDirectory } from '../auth/access-directory.js';
import { Caller } from '../auth/caller.js';
import type { Issuer } from '../auth/issuer.js';
import { verifyPullToken } from '../auth/pull-token.js';
import { narrowingOf } from '../auth/token-narrowing.js';
import { isValidUid } from '../core/uidp.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { OciError } from './oci-errors.js';
import { accessClaimOf } from './registry-token.js';

export interface CredentialDeps {
  issuer: Issuer;
  access: AccessDirectory;
  /** Finds an identity's relationship by uid (its static keys, for pull tokens). */
  identities: ExchangeDirectory;
  /** The registry host: the audience an identity's token must carry. */
  audience: string;
}

/** One way of checking a username and password; `accepts` looks at the username only. */
interface PasswordCheck {
  accepts(username: string): boolean;
  /** The identity uid the password proves, or throws badCredentials(). */
  subject(username: string, password: string, deps: CredentialDeps): Promise<string>;
}

const MAX_CREDENTIAL_CHARS = 16 * 1024;

export function badCredentials(): OciError {
  return new OciError('UNAUTHORIZED', 'invalid username or password');
}

/** The identity of a Berth token for the registry audience; registry tokens (with `access`) are not credentials. */
async function identityOfToken(token: string, deps: CredentialDeps): Promise<string> {
  try {
    const verified = await deps.issuer.verify(token, [deps.audience]);
    // A narrowed token (cap/scopes at /sts/exchange) is no registry password:
    // the registry tokens minted from a password do not carry the narrowing.
    const narrowed = Object.keys(narrowingOf(verified.claims)).length > 0;
    if (accessClaimOf(verified.claims) !== undefined || verified.subject === '' || narrowed) throw badCredentials();
    return verified.subject;
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw err; // reloading keys failed: not the caller's fault
    throw badCredentials();
  }
}

/** The username itself when the password is that pull-token identity's token. */
async function identityOfPullToken(uid: string, password: string, deps: CredentialDeps): Promise<string> {
  const [found] = await deps.identities.candidates({ identity: uid, issuer: '', subject: '' }, 1);
  if (found?.uid !== uid || found.relationship.case !== 'staticKeys') throw badCredentials();
  try {
    await verifyPullToken(found.relationship.value, password, deps.audience);
  } catch {
    throw badCredentials(); // a bad signature, another audience, expired, not a pull-token identity
  }
  return uid;
}

const PASSWORD_CHECKS: readonly PasswordCheck[] = [
  { accepts: (u) => u === '_token', subject: (_u, password, deps) => identityOfToken(password, deps) },
  { accepts: (u) => isValidUid(u), subject: (u, password, deps) => identityOfPullToken(u, password, deps) },
];

/** The caller a username and password prove (HTTP Basic, or the OAuth2 password grant). */
export async function passwordCaller(username: string, password: string, deps: CredentialDeps): Promise<Caller> {
  if (username.length + password.length > MAX_CREDENTIAL_CHARS) throw badCredentials();
  const check = PASSWORD_CHECKS.find((c) => c.accepts(username));
  if (!check) throw badCredentials();
  return existing(await check.subject(username, password, deps), deps);
}

async function existing(subject: string, deps: CredentialDeps): Promise<Caller> {
  const state = await deps.access.load(subject);
  if (!state.exists) throw badCredentials();
  return new Caller(subject, state);
}

/** The caller of a /token request by its Authorization header; anonymous without one. */
export async function tokenRequestCaller(authorization: string | undefined, deps: CredentialDeps): Promise<Caller> {
  if (authorization === undefined || authorization === '') return new Caller('');
  if (authorization.length > MAX_CREDENTIAL_CHARS) throw badCredentials();
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (basic) {
    const text = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon < 0 || text.includes('\u0000')) throw badCredentials();
    return passwordCaller(text.slice(0, colon), text.slice(colon + 1), deps);
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) return existing(await identityOfToken(bearer[1], deps), deps);
  throw badCredentials();
}
