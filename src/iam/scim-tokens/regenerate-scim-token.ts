// RegenerateScimToken: a new token replaces the current one, which keeps
// working for the overlap (make before break) so the SCIM client can be
// reconfigured; a token still in an earlier overlap stops at once.
import { create } from '@bufbuild/protobuf';
import { type Duration, DurationSchema } from '@bufbuild/protobuf/wkt';
import type { HandlerContext } from '@connectrpc/connect';
import type { FieldViolation } from '../../core/api-error.js';
import { isoToTimestamp } from '../../core/clock.js';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import {
  type RegenerateScimTokenRequest,
  type RegenerateScimTokenResponse,
  RegenerateScimTokenResponseSchema,
} from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, scimEtagMismatch, scimTokenNotFound } from '../errors.js';
import { loadProviderRow } from '../identity-providers/provider-row.js';
import { newEtag, newScimToken, saveScimRow, scimEndpointUrl, scimRowForUpdate, scimTokenHash } from './scim-state.js';
import { tokenExpiry } from './token-expiry.js';

const DEFAULT_OVERLAP_S = 3600;
const MAX_OVERLAP_S = 24 * 3600;

function overlapSeconds(d: Duration | undefined, bad: FieldViolation[]): number {
  if (!d) return DEFAULT_OVERLAP_S;
  const s = Number(d.seconds) + d.nanos / 1e9;
  if (!(s >= 0) || s > MAX_OVERLAP_S) bad.push({ field: 'overlap', description: 'must be between 0s and 24h' });
  return s;
}

export async function regenerateScimToken(deps: ServiceDeps, req: RegenerateScimTokenRequest, ctx: HandlerContext): Promise<RegenerateScimTokenResponse> {
  const now = new Date();
  const bad: FieldViolation[] = [];
  if (req.etag === '') bad.push({ field: 'etag', description: 'required: the current SCIM etag of the provider' });
  const expiry = tokenExpiry(req.expireTime, req.neverExpires, now, bad);
  const overlap = overlapSeconds(req.overlap, bad);
  if (bad.length > 0) throw badIamRequest(bad);
  const token = newScimToken();
  return transact(deps.store, async (tx) => {
    await loadProviderRow(tx, req.identityProviderUid);
    const row = await scimRowForUpdate(tx, req.identityProviderUid, now.toISOString());
    if (row.token_hash === null) throw scimTokenNotFound(req.identityProviderUid);
    if (row.etag !== req.etag) throw scimEtagMismatch();
    // The old token lives on for the overlap, but never past its own expiry.
    let previousExpiry = new Date(now.getTime() + overlap * 1000).toISOString();
    if (row.token_expire_time !== null && row.token_expire_time < previousExpiry) previousExpiry = row.token_expire_time;
    const keepsPrevious = overlap > 0 && previousExpiry > now.toISOString();
    const next = {
      ...row,
      token_hash: scimTokenHash(token),
      token_expire_time: expiry,
      previous_token_hash: keepsPrevious ? row.token_hash : null,
      previous_token_expire_time: keepsPrevious ? previousExpiry : null,
      revoke_time: null,
      etag: newEtag(),
      update_time: now.toISOString(),
    };
    await saveScimRow(tx, next);
    const res = create(RegenerateScimTokenResponseSchema, {
      token,
      endpointUrl: scimEndpointUrl(deps.publicUrl, req.identityProviderUid),
      expireTime: expiry === null ? undefined : isoToTimestamp(expiry),
      identityProviderUid: req.identityProviderUid,
      etag: next.etag,
      previousTokenExpireTime: keepsPrevious ? isoToTimestamp(previousExpiry) : undefined,
      requestedOverlap: create(DurationSchema, { seconds: BigInt(Math.floor(overlap)), nanos: Math.round((overlap % 1) * 1e9) }),
    });
    const message = create(RegenerateScimTokenResponseSchema, { ...res, token: '' });
    await emitRpcEvent(tx, ctx, {
      group: parentOf(req.identityProviderUid),
      subject: req.identityProviderUid,
      schema: RegenerateScimTokenResponseSchema,
      message,
    });
    return res;
  });
}
