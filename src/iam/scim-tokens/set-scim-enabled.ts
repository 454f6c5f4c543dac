// SetScimEnabled: turns the provider's SCIM endpoint on or off. Off, every
// SCIM request is refused (403) whatever its token; nothing provisioned is
// undone.
import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { parentOf } from '../../core/uidp.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import { type SetScimEnabledRequest, type SetScimEnabledResponse, SetScimEnabledResponseSchema } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, scimEtagMismatch } from '../errors.js';
import { loadProviderRow } from '../identity-providers/provider-row.js';
import { newEtag, saveScimRow, scimRowForUpdate } from './scim-state.js';

export async function setScimEnabled(deps: ServiceDeps, req: SetScimEnabledRequest, ctx: HandlerContext): Promise<SetScimEnabledResponse> {
  if (req.etag === '') throw badIamRequest([{ field: 'etag', description: 'required: the current SCIM etag of the provider' }]);
  const now = new Date().toISOString();
  return transact(deps.store, async (tx) => {
    await loadProviderRow(tx, req.identityProviderUid);
    const row = await scimRowForUpdate(tx, req.identityProviderUid, now);
    if (row.etag !== req.etag) throw scimEtagMismatch();
    const next = { ...row, enabled: req.enabled ? 1 : 0, etag: newEtag(), update_time: now };
    await saveScimRow(tx, next);
    const res = create(SetScimEnabledResponseSchema, { identityProviderUid: req.identityProviderUid, enabled: req.enabled, etag: next.etag });
    await emitRpcEvent(tx, ctx, {
      group: parentOf(req.identityProviderUid),
      subject: req.identityProviderUid,
      schema: SetScimEnabledResponseSchema,
      message: res,
    });
    return res;
  });
}
