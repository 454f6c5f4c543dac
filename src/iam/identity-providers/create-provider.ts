// The guard has checked identity_providers.create and role_bindings.create at
// the parent group; here the request is checked, then the default role (it
// exists, and the caller could bind it there now), then it is stored with its
// client secret sealed.
import type { HandlerContext } from '@connectrpc/connect';
import { callerOf } from '../../auth/caller.js';
import { nowIso } from '../../core/clock.js';
import { newChildUid } from '../../core/uidp.js';
import { IdentityProviderSchema, type CreateIdentityProviderRequest, type IdentityProvider } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact } from '../../store/transact.js';
import { badIamRequest, groupNotFound, IAM_DOMAIN } from '../errors.js';
import { requireGrantableRole } from '../roles/grantable-role.js';
import { sealClientSecret } from './client-secret.js';
import { providerFromRow } from './provider-row.js';
import { clientSecretViolation, normalizeScopes, settingsViolations, type ProviderSettings } from './provider-rules.js';

export async function createIdentityProvider(deps: ServiceDeps, req: CreateIdentityProviderRequest, ctx: HandlerContext): Promise<IdentityProvider> {
  const caller = callerOf(ctx, IAM_DOMAIN);
  const p = req.identityProvider;
  const oidc = p?.configuration.case === 'oidc' ? p.configuration.value : undefined;
  const settings: ProviderSettings = { name: p?.name ?? '', description: p?.description ?? '', defaultRole: p?.defaultRole ?? '', oidc };
  const bad = settingsViolations(settings, req.parent, deps.allowInsecureIssuers);
  const secret = oidc?.clientSecret ?? '';
  const badSecret = clientSecretViolation(secret);
  if (badSecret) bad.push(badSecret);
  if (bad.length > 0 || !oidc) throw badIamRequest(bad);
  const uid = newChildUid(req.parent);
  const now = nowIso();
  const row = {
    uid,
    parent_uid: req.parent,
    name: settings.name,
    description: settings.description,
    default_role_uid: settings.defaultRole,
    issuer: oidc.issuer,
    client_id: oidc.clientId,
    additional_scopes: JSON.stringify(normalizeScopes(oidc.additionalScopes)),
    groups_claim: oidc.groupsClaim,
    pkce_enabled: oidc.pkceEnabled ? 1 : 0,
    // Who vouches for the default role: sign in binds it only while this identity still could.
    default_role_by: caller.identityUid,
    create_time: now,
    update_time: now,
  };
  const clientSecret = sealClientSecret(deps.secrets, uid, secret);
  await transact(deps.store, async (tx) => {
    const group = await tx.selectFrom('groups').select('uid').where('uid', '=', req.parent).executeTakeFirst();
    if (!group) throw groupNotFound(req.parent);
    await requireGrantableRole(tx, caller, settings.defaultRole, req.parent);
    await tx
      .insertInto('identity_providers')
      .values({ ...row, client_secret: clientSecret })
      .execute();
    // The body is the provider as returned: the client secret is INPUT_ONLY, never in it.
    await emitRpcEvent(tx, ctx, { group: req.parent, subject: uid, schema: IdentityProviderSchema, message: providerFromRow(row) });
  });
  return providerFromRow(row);
}
