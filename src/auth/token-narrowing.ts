// A Berth token can be narrower than its identity: /sts/exchange's `cap` and
// `scopes` parameters put the capabilities and groups it is limited to in the
// token (claims berth_caps and berth_scopes). Authorization intersects them
// with the identity's live grants on every request, so the token never does
// more than the bindings allow now, and a narrowed one does less.
import type { JWTPayload } from 'jose';
import type { Capability } from '../gen/berth/capabilities/v1/capabilities_pb.js';
import { isValidUid } from '../core/uidp.js';
import { capabilitiesByName } from './capability-names.js';

export interface TokenNarrowing {
  /** Only these capabilities; all of the grants' when absent. */
  caps?: readonly Capability[];
  /** Only at or below these groups; everywhere the grants reach when absent. */
  scopes?: readonly string[];
}

export const CAPS_CLAIM = 'berth_caps';
export const SCOPES_CLAIM = 'berth_scopes';
/** Bounds on what a request (and so a token) may name. */
export const MAX_NARROWING_ENTRIES = 100;

/** The claims to mint for a narrowing (none for an unnarrowed token). */
export function narrowingClaims(n: { capNames?: readonly string[]; scopes?: readonly string[] }): JWTPayload {
  const out: JWTPayload = {};
  if (n.capNames !== undefined) out[CAPS_CLAIM] = [...n.capNames];
  if (n.scopes !== undefined) out[SCOPES_CLAIM] = [...n.scopes];
  return out;
}

function stringList(v: unknown): string[] {
  if (!Array.isArray(v) || v.length > MAX_NARROWING_ENTRIES || !v.every((x) => typeof x === 'string')) throw new Error('malformed narrowing claim');
  return v as string[];
}

/** The narrowing a verified Berth token carries; throws (the token is then refused) when a claim is malformed, so a bad one never widens. */
export function narrowingOf(claims: JWTPayload): TokenNarrowing {
  const out: TokenNarrowing = {};
  if (claims[CAPS_CLAIM] !== undefined) out.caps = capabilitiesByName(stringList(claims[CAPS_CLAIM]));
  if (claims[SCOPES_CLAIM] !== undefined) {
    const scopes = stringList(claims[SCOPES_CLAIM]);
    if (!scopes.every(isValidUid)) throw new Error('malformed scopes claim');
    out.scopes = scopes;
  }
  return out;
}
