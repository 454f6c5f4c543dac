// RevokeScimToken: the current token and any previous one still in its
// overlap stop working at once; whether SCIM is enabled does not change.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { isoToTimestamp } from '../../core/clock.js';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { type RevokeScimTokenRequest, type RevokeScimTokenResponse, RevokeScimTokenResponseSchema } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { loadProviderRow } from '../identity-providers/provider-row.js';
import { newEtag, saveScimRow, scimRowForUpdate } from './scim-state.js';

export async function revokeScimToken(deps: ServiceDeps, req: RevokeScimTokenRequest, ctx: HandlerContext): Promise<RevokeScimTokenResponse> {
  const now = new Date().toISOString();
  return transact(deps.store, async (tx) => {
    await loadProviderRow(tx, req.identityProviderUid);
    const row = await scimRowForUpdate(tx, req.identityProviderUid, now);
    const next = {
      ...row,
      token_hash: null,
      token_expire_time: null,
      previous_token_hash: null,
      previous_token_expire_time: null,
      revoke_time: now,
      etag: newEtag(),
      update_time: now,
    };
    await saveScimRow(tx, next);
    const res = create(RevokeScimTokenResponseSchema, {
      identityProviderUid: req.identityProviderUid,
      etag: next.etag,
      enabled: next.enabled === 1,
      revokeTime: isoToTimestamp(now),
    });
    await emitRpcEvent(tx, ctx, {
      group: parentOf(req.identityProviderUid),
      subject: req.identityProviderUid,
      schema: RevokeScimTokenResponseSchema,
      message: res,
    });
    return res;
  });
}
