// IAM's side of human sign in (auth/login-directory.ts): the provider's
// settings and sealed secret, and the one transaction a sign in writes —
// register the user on first sign in, then sync the provider's group
// mappings into role bindings.
//
// First sign in creates a root-level user identity under
// userIdentityUid(issuer, subject) (what LookupIdentity answers beforehand),
// with a claimMatch on exactly that issuer and subject, and binds the
// provider's default role on the provider's group — if whoever set that role
// (default_role_by) still exists and could bind it there now; otherwise the
// user is registered without it (grant-authority.ts). Later sign ins only
// refresh its email and last-seen time: the default role is not bound again,
// so an administrator who removed it keeps it removed. Registration emits the
// event AuthService.Register declares (auth.registered, {group, identity}) in
// the same transaction, as accepting an invite does.
import type { KeyObject } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { registrationEvent } from './registration-event.js';
import type { LoginDirectory, LoginProvider, SignedInUser } from '../../auth/login-directory.js';
import { nowIso } from '../../core/clock.js';
import { Identity_ClaimMatchSchema } from '../../gen/berth/iam/v2/identities_pb.js';
import { isUniqueViolation } from '../../store/constraint-error.js';
import type { Store } from '../../store/store.js';
import { transact, type Tx } from '../../store/transact.js';
import { syncGroupBindings } from '../group-mappings/sync-group-bindings.js';
import { groupsAtSignIn } from '../scim/scim-membership.js';
import { readClientSecret } from '../identity-providers/client-secret.js';
import { PUBLIC_COLUMNS } from '../identity-providers/provider-row.js';
import { userIdentityUid } from '../identities/lookup-identity.js';
import { writeIdentity } from '../identities/identity-writer.js';
import { GrantAuthority } from '../role-bindings/grant-authority.js';
import { writeBinding } from '../role-bindings/write-binding.js';

/** Requested besides the provider's additional scopes. */
const BASE_SCOPES = ['openid', 'email', 'profile'];

export class IamLoginDirectory implements LoginDirectory {
  constructor(
    private readonly store: Store,
    private readonly secrets: KeyObject | undefined,
  ) {}

  async provider(uid: string): Promise<LoginProvider | undefined> {
    const row = await this.store.db.selectFrom('identity_providers').select(PUBLIC_COLUMNS).where('uid', '=', uid).executeTakeFirst();
    if (!row) return undefined;
    const extra = JSON.parse(row.additional_scopes) as string[];
    return {
      uid: row.uid,
      issuer: row.issuer,
      clientId: row.client_id,
      scopes: [...new Set([...BASE_SCOPES, ...extra])],
      groupsClaim: row.groups_claim === '' ? 'groups' : row.groups_claim,
      pkceEnabled: row.pkce_enabled !== 0,
    };
  }

  clientSecret(uid: string): Promise<string | undefined> {
    return readClientSecret(this.store.db, this.secrets, uid);
  }

  async signIn(providerUid: string, user: SignedInUser): Promise<{ identityUid: string; registered: boolean }> {
    try {
      return await this.signInOnce(providerUid, user);
    } catch (err) {
      // Two first sign ins of one user at once: the loser's insert collides; once more finds the identity.
      if (isUniqueViolation(err)) return this.signInOnce(providerUid, user);
      throw err;
    }
  }

  private signInOnce(providerUid: string, user: SignedInUser): Promise<{ identityUid: string; registered: boolean }> {
    return transact(this.store, async (tx) => {
      const provider = await tx
        .selectFrom('identity_providers')
        .select(['parent_uid', 'default_role_uid', 'default_role_by'])
        .where('uid', '=', providerUid)
        .executeTakeFirstOrThrow();
      const identityUid = userIdentityUid(user.issuer, user.subject);
      // A user the provider's SCIM client deactivated is refused; one it provisions is also in its SCIM groups.
      const groups = await groupsAtSignIn(tx, providerUid, identityUid, user.groups);
      const registered = await registerUser(tx, identityUid, user, provider);
      await syncGroupBindings(tx, identityUid, providerUid, groups);
      return { identityUid, registered };
    });
  }
}

/**
 * Creates the identity and its default binding when it does not exist yet;
 * true when it did not. A sign in marks an existing one seen; SCIM
 * provisioning (`seen: false`) does not.
 */
export async function registerUser(
  tx: Tx,
  uid: string,
  user: Omit<SignedInUser, 'groups'>,
  provider: { parent_uid: string; default_role_uid: string; default_role_by: string | null },
  opts: { seen: boolean } = { seen: true },
): Promise<boolean> {
  if (opts.seen) {
    const now = nowIso();
    const seen = user.email === undefined ? { last_seen_time: now } : { last_seen_time: now, email: user.email };
    const updated = await tx.updateTable('identities').set(seen).where('uid', '=', uid).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return false;
  } else if (await tx.selectFrom('identities').select('uid').where('uid', '=', uid).executeTakeFirst()) return false;
  const claimMatch = create(Identity_ClaimMatchSchema, { iss: { case: 'issuer', value: user.issuer }, sub: { case: 'subject', value: user.subject } });
  const identity = {
    uid,
    parent: null,
    name: user.name,
    description: '',
    company: '',
    email: user.email ?? '',
    relationship: { case: 'claimMatch' as const, value: claimMatch },
  };
  await writeIdentity(tx, identity, 'sign-in');
  if (await new GrantAuthority(tx).holds(provider.default_role_by, provider.default_role_uid, provider.parent_uid)) {
    await writeBinding(tx, { parent: provider.parent_uid, identityUid: uid, roleUid: provider.default_role_uid });
  }
  await registrationEvent(tx, uid, provider.parent_uid);
  return true;
}
