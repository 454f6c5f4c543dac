// The guard has checked identity_providers.update and role_bindings.create at
// the provider. Two more checks keep an update from handing out more than the
// caller holds: a new default role must be one the caller could bind now, and
// changing whom the provider trusts (issuer, client id or secret, groups
// claim) needs every role the provider hands out — its default role and each
// mapping's role on its scope — since whoever that provider vouches for gets
// them at sign in.
import type { HandlerContext } from '@connectrpc/connect';
import type { Caller } from '../../auth/caller.js';
import { callerOf } from '../../auth/caller.js';
import { nowIso } from '../../core/clock.js';
import { parentOf } from '../../core/uidp.js';
import { IdentityProviderSchema, type IdentityProvider, type UpdateIdentityProviderRequest } from '../../gen/berth/iam/v2/identity_providers_pb.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { ServiceDeps } from '../../runtime/service-deps.js';
import { transact, type Tx } from '../../store/transact.js';
import { badIamRequest, IAM_DOMAIN } from '../errors.js';
import { requireGrantableRole } from '../roles/grantable-role.js';
import { sealClientSecret } from './client-secret.js';
import { loadProviderRow, providerFromRow, type ProviderRow } from './provider-row.js';
import { clientSecretViolation, normalizeScopes, settingsViolations, type ProviderSettings } from './provider-rules.js';
import { applyProviderChanges, providerChanges } from './provider-update-mask.js';

function settingsOf(row: ProviderRow): ProviderSettings {
  return {
    name: row.name,
    description: row.description,
    defaultRole: row.default_role_uid,
    oidc: {
      issuer: row.issuer,
      clientId: row.client_id,
      additionalScopes: JSON.parse(row.additional_scopes) as string[],
      groupsClaim: row.groups_claim,
      pkceEnabled: row.pkce_enabled !== 0,
    },
  };
}

/** Every role the provider hands out at sign in, where it hands it out. */
async function requireEverythingHandedOut(tx: Tx, caller: Caller, providerUid: string, defaultRole: string, group: string): Promise<void> {
  await requireGrantableRole(tx, caller, defaultRole, group);
  const mapped = await tx
    .selectFrom('external_group_role_mappings')
    .select(['role_uid', 'scope_uid'])
    .distinct()
    .where('parent_uid', '=', providerUid)
    .execute();
  for (const m of mapped) await requireGrantableRole(tx, caller, m.role_uid, m.scope_uid);
}

export async function updateIdentityProvider(deps: ServiceDeps, req: UpdateIdentityProviderRequest, ctx: HandlerContext): Promise<IdentityProvider> {
  const incoming = req.identityProvider!; // the guard has checked identity_provider.uid
  const changes = providerChanges(incoming, req.updateMask);
  const caller = callerOf(ctx, IAM_DOMAIN);
  const group = parentOf(incoming.uid);
  return transact(deps.store, async (tx) => {
    const row = await loadProviderRow(tx, incoming.uid);
    const stored = settingsOf(row);
    const { settings, secret } = applyProviderChanges(stored, incoming, changes);
    const bad = settingsViolations(settings, group, deps.allowInsecureIssuers);
    const badSecret = secret.keep ? undefined : clientSecretViolation(secret.secret);
    if (badSecret) bad.push(badSecret);
    if (bad.length > 0 || !settings.oidc || !stored.oidc) throw badIamRequest(bad);
    const o = settings.oidc;
    const trustChanges = o.issuer !== stored.oidc.issuer || o.clientId !== stored.oidc.clientId || o.groupsClaim !== stored.oidc.groupsClaim || !secret.keep;
    // An update that sets the default role (even to the one it has) vouches for it anew: the caller
    // is checked against it and recorded as the one sign in re-checks (grant-authority.ts).
    const vouched = trustChanges || changes.top.has('default_role');
    if (trustChanges) await requireEverythingHandedOut(tx, caller, row.uid, settings.defaultRole, group);
    else if (vouched) await requireGrantableRole(tx, caller, settings.defaultRole, group);
    const next: ProviderRow = {
      ...row,
      name: settings.name,
      description: settings.description,
      default_role_uid: settings.defaultRole,
      issuer: o.issuer,
      client_id: o.clientId,
      additional_scopes: JSON.stringify(normalizeScopes(o.additionalScopes)),
      groups_claim: o.groupsClaim,
      pkce_enabled: o.pkceEnabled ? 1 : 0,
      default_role_by: vouched ? caller.identityUid : row.default_role_by,
      update_time: nowIso(),
    };
    const { uid: _uid, parent_uid: _parent, create_time: _created, ...changed } = next;
    const sealed = secret.keep ? {} : { client_secret: sealClientSecret(deps.secrets, row.uid, secret.secret) };
    await tx
      .updateTable('identity_providers')
      .set({ ...changed, ...sealed })
      .where('uid', '=', row.uid)
      .execute();
    const provider = providerFromRow(next);
    await emitRpcEvent(tx, ctx, { group, subject: row.uid, schema: IdentityProviderSchema, message: provider });
    return provider;
  });
}
