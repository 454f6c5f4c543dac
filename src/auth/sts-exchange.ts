// Token exchange: a client proves who it is with a token Berth can verify and
// gets back a one-hour Berth token for the audience it asked for.
//  - staticKeys identities sign their own assertion (iss/sub of the identity,
//    aud = this issuer) with a key whose public half the identity holds.
//  - claimMatch identities present an OIDC token of an external issuer, whose
//    keys are found through that issuer's discovery document.
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { create } from '@bufbuild/protobuf';
import { IdentitySchema, type Identity } from '../gen/berth/iam/v2/identities_pb.js';
import { loadRelationship } from '../iam/identities/relationship.js';
import { invalidArgument, permissionDenied, unauthenticated } from '../core/api-error.js';
import { isValidUid } from '../core/uidp.js';
import { nowIso } from '../core/clock.js';
import type { Store } from '../store/store.js';
import type { Issuer } from './issuer.js';

export const STS_DOMAIN = 'sts.berth.dev';

export interface ExchangeRequest {
  assertion: string;
  audiences: string[];
  identity: string;
}

export interface ExchangeDeps {
  store: Store;
  issuer: Issuer;
  /** Audiences Berth mints tokens for (the API URL, the registry host…). */
  allowedAudiences: readonly string[];
}

const remoteKeys = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

async function remoteJwks(iss: string) {
  let jwks = remoteKeys.get(iss);
  if (!jwks) {
    const res = await fetch(`${iss.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`discovery of ${iss} answered ${res.status}`);
    const doc = (await res.json()) as { jwks_uri?: string; issuer?: string };
    if (!doc.jwks_uri || doc.issuer !== iss) throw new Error(`discovery of ${iss} is not valid`);
    jwks = createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: 5000 });
    remoteKeys.set(iss, jwks);
  }
  return jwks;
}

function matches(exact: string | undefined, pattern: string | undefined, value: string): boolean {
  if (exact !== undefined) return exact === value;
  if (pattern !== undefined) return new RegExp(`^(?:${pattern})$`).test(value);
  return false;
}

async function verifyFor(identity: Identity, assertion: string, claims: JWTPayload, deps: ExchangeDeps): Promise<boolean> {
  const rel = identity.relationship;
  const iss = String(claims.iss ?? '');
  const sub = String(claims.sub ?? '');
  if (rel.case === 'staticKeys') {
    const sk = rel.value;
    if (sk.issuer !== iss || sk.subject !== sub) return false;
    if (sk.expirationTime && Number(sk.expirationTime.seconds) * 1000 < Date.now()) return false;
    const keys = createLocalJWKSet(JSON.parse(sk.issuerKeys));
    const aud = sk.audiences.length > 0 ? sk.audiences : [deps.issuer.url];
    await jwtVerify(assertion, keys, { issuer: sk.issuer, subject: sk.subject, audience: aud, maxTokenAge: '1h' });
    return true;
  }
  if (rel.case === 'claimMatch') {
    const cm = rel.value;
    if (!matches(cm.iss.case === 'issuer' ? cm.iss.value : undefined, cm.iss.case === 'issuerPattern' ? cm.iss.value : undefined, iss)) return false;
    if (!matches(cm.sub.case === 'subject' ? cm.sub.value : undefined, cm.sub.case === 'subjectPattern' ? cm.sub.value : undefined, sub)) return false;
    const { payload } = await jwtVerify(assertion, await remoteJwks(iss), { issuer: iss });
    const auds = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const audOk =
      cm.aud.case === 'audience' ? auds.includes(cm.aud.value)
        : cm.aud.case === 'audiencePattern' ? auds.some((a) => new RegExp(`^(?:${(cm.aud.value as string)})$`).test(a))
          : auds.includes(deps.issuer.url);
    if (!audOk) return false;
    for (const [k, v] of Object.entries(cm.claims)) if (String(payload[k]) !== v) return false;
    for (const [k, v] of Object.entries(cm.claimPatterns)) if (!new RegExp(`^(?:${v})$`).test(String(payload[k]))) return false;
    return true;
  }
  return false;
}

export async function exchange(deps: ExchangeDeps, req: ExchangeRequest): Promise<{ token: string; expiry: Date }> {
  if (req.assertion === '') throw unauthenticated(STS_DOMAIN, 'send the token to exchange as Authorization: Bearer <token>');
  const audiences = req.audiences.length > 0 ? req.audiences : [deps.issuer.url];
  if (audiences.length > 1) throw invalidArgument(STS_DOMAIN, [{ field: 'aud', description: 'ask for one audience per token' }]);
  if (!deps.allowedAudiences.includes(audiences[0])) {
    throw invalidArgument(STS_DOMAIN, [{ field: 'aud', description: `audience must be one of: ${deps.allowedAudiences.join(', ')}` }]);
  }
  if (req.identity !== '' && !isValidUid(req.identity)) {
    throw invalidArgument(STS_DOMAIN, [{ field: 'identity', description: 'identity must be a uid' }]);
  }
  let claims: JWTPayload;
  try {
    claims = decodeJwt(req.assertion);
  } catch {
    throw unauthenticated(STS_DOMAIN, 'the presented token is not a JWT');
  }
  let q = deps.store.db.selectFrom('identities').selectAll();
  q = req.identity !== '' ? q.where('uid', '=', req.identity) : q.where('issuer', '=', String(claims.iss ?? '')).where('subject', '=', String(claims.sub ?? ''));
  const rows = await q.limit(20).execute();
  for (const row of rows) {
    const identity = create(IdentitySchema, { relationship: loadRelationship(row) });
    let ok = false;
    try {
      ok = await verifyFor(identity, req.assertion, claims, deps);
    } catch {
      ok = false;
    }
    if (ok) {
      await deps.store.db.updateTable('identities').set({ last_seen_time: nowIso() }).where('uid', '=', row.uid).execute();
      return deps.issuer.mint(row.uid, audiences[0]);
    }
  }
  throw permissionDenied(STS_DOMAIN, 'no identity accepts the presented token');
}
