// What a provisioned user's `active` means for its identity. Active: the
// identity exists — created on first activation as a first sign in would
// create it (root-level, claimMatch on the provider's issuer and the user's
// subject, the provider's default role on its group when whoever set that
// role may still grant it, the registration event), through the identity
// writer — and its mapping bindings follow its SCIM groups. Inactive or
// deleted: the identity is deleted, so every token minted for it is refused
// on its next request (authenticate.ts finds no identity) and its refresh
// tokens and role bindings go with it; an organization's last owner binding
// is not taken away (the SCIM request fails with 409 instead).
import type { Tx } from '../../store/transact.js';
import { keepOwners } from '../role-bindings/owner-bindings.js';
import { registerUser } from '../sign-in/iam-login-directory.js';
import type { ScimProvider } from './scim-bearer.js';
import { resyncScimUser } from './scim-membership.js';
import { identityName, primaryEmail, type UserFields } from './scim-user-resource.js';

export async function activateIdentity(tx: Tx, provider: ScimProvider, id: string, subject: string, f: UserFields): Promise<void> {
  const email = primaryEmail(f);
  await registerUser(tx, id, { issuer: provider.issuer, subject, name: identityName(f), ...(email ? { email } : {}) }, provider, { seen: false });
  await resyncScimUser(tx, provider.uid, id);
}

export async function deactivateIdentity(tx: Tx, id: string): Promise<void> {
  await keepOwners(tx, { identity: id }, () => tx.deleteFrom('identities').where('uid', '=', id).execute());
}
