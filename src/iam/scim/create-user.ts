// POST /Users (RFC 7644 §3.3): the user's id is the uid of the identity it
// provisions, userIdentityUid(the provider's issuer, externalId else
// userName), the identity a sign in through the provider with that subject
// finds — so SCIM and sign in agree on who the person is.
import { transact } from '../../store/transact.js';
import { userIdentityUid } from '../identities/lookup-identity.js';
import type { ScimContext } from './scim-context.js';
import { scimUniqueness } from './scim-errors.js';
import type { Json } from './scim-json.js';
import { userFields, userResource } from './scim-user-resource.js';
import { writeUser } from './user-writer.js';

export async function createUser(c: ScimContext, body: unknown): Promise<Json> {
  const f = userFields(body);
  const subject = f.externalId ?? f.userName;
  const id = userIdentityUid(c.provider.issuer, subject);
  const row = await transact(c.store, async (tx) => {
    const taken = await tx.selectFrom('scim_users').select('id').where('provider_uid', '=', c.provider.uid).where('id', '=', id).executeTakeFirst();
    if (taken) throw scimUniqueness('a user with this externalId (or, without one, userName) exists');
    return writeUser(tx, c, id, subject, f);
  });
  return userResource(row, c);
}
