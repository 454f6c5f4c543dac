// GenerateScimToken: the provider's first token. The guard has checked
// identity_providers.scim.manage and identity_providers.list at the provider.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { isoToTimestamp } from '../../core/clock.js';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import {
  type GenerateScimTokenRequest,
  type GenerateScimTokenResponse,
  GenerateScimTokenResponseSchema,
} from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import type { FieldViolation } from '../../core/api-error.js';
import { badIamRequest, scimTokenExists } from '../errors.js';
import { loadProviderRow } from '../identity-providers/provider-row.js';
import { newEtag, newScimToken, saveScimRow, scimEndpointUrl, scimRowForUpdate, scimTokenHash } from './scim-state.js';
import { tokenExpiry } from './token-expiry.js';

export async function generateScimToken(deps: ServiceDeps, req: GenerateScimTokenRequest, ctx: HandlerContext): Promise<GenerateScimTokenResponse> {
  const now = new Date();
  const bad: FieldViolation[] = [];
  const expiry = tokenExpiry(req.expireTime, req.neverExpires, now, bad);
  if (bad.length > 0) throw badIamRequest(bad);
  const token = newScimToken();
  return transact(deps.store, async (tx) => {
    await loadProviderRow(tx, req.identityProviderUid);
    const row = await scimRowForUpdate(tx, req.identityProviderUid, now.toISOString());
    if (row.token_hash !== null) throw scimTokenExists();
    const next = {
      ...row,
      token_hash: scimTokenHash(token),
      token_expire_time: expiry,
      previous_token_hash: null,
      previous_token_expire_time: null,
      revoke_time: null,
      etag: newEtag(),
      update_time: now.toISOString(),
    };
    await saveScimRow(tx, next);
    const res = create(GenerateScimTokenResponseSchema, {
      token,
      endpointUrl: scimEndpointUrl(deps.publicUrl, req.identityProviderUid),
      expireTime: expiry === null ? undefined : isoToTimestamp(expiry),
      identityProviderUid: req.identityProviderUid,
      etag: next.etag,
    });
    // The event never carries the token.
    const message = create(GenerateScimTokenResponseSchema, { ...res, token: '' });
    await emitRpcEvent(tx, ctx, {
      group: parentOf(req.identityProviderUid),
      subject: req.identityProviderUid,
      schema: GenerateScimTokenResponseSchema,
      message,
    });
    return res;
  });
}
