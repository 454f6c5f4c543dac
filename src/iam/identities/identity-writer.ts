// The one function that inserts an identity. CreateIdentity (after the
// guard's permission check), the first sign in through an identity provider
// and an organization's owner (first start, berth admin recover-owner) end
// here, so every stored identity has no NUL in its text (PostgreSQL cannot
// store one), lives under a group that exists, and commits with its event
// when it has one. Callers keep their own permission checks and what they add
// beside it (an owner binding, a registration event).
import type { HandlerContext } from '@connectrpc/connect';
import { IdentitySchema, type Identity } from '../../gen/berth/iam/v2/identities_pb.js';
import { emitRpcEvent } from '../../events/rpc-event.js';
import type { FieldViolation } from '../../core/api-error.js';
import { nowIso } from '../../core/clock.js';
import type { Tx } from '../../store/transact.js';
import type { IdentitiesTable } from '../iam-tables.js';
import { badIamRequest, groupNotFound } from '../errors.js';
import { identityFieldViolations, identityFromRow } from './identity-row.js';
import { storeRelationship } from './relationship.js';
import { checkRelationship } from './validate-relationship.js';

export interface NewIdentity {
  uid: string;
  /** The group it is scoped to; null for a root-level identity. */
  parent: string | null;
  name: string;
  description: string;
  company: string;
  /** Set by sign in only: output only in the API. */
  email: string;
  relationship: Identity['relationship'];
}

/**
 * Who writes the identity. A CreateIdentity call's fields are the caller's,
 * held to the contract's rules (name pattern, lengths, a relationship
 * /sts/exchange can use), and it writes identity.created. A first sign in's
 * name comes from the ID token's claims (auth's provider-login: any case, up
 * to 200 characters), an owner's from Berth; neither writes identity.created
 * (a sign in writes the registration instead).
 */
export type IdentityAuthor = { ctx: HandlerContext; allowInsecureIssuers: boolean } | 'sign-in' | 'owner';

function nulViolations(id: NewIdentity): FieldViolation[] {
  const text: [string, string][] = [
    ['name', id.name],
    ['description', id.description],
    ['company', id.company],
    ['email', id.email],
  ];
  return text.filter(([, v]) => v.includes('\u0000')).map(([field]) => ({ field, description: `${field} must not contain NUL (\\u0000) characters` }));
}

/** Validates and inserts the identity inside `tx`, with its event; the row as stored. */
export async function writeIdentity(tx: Tx, id: NewIdentity, by: IdentityAuthor): Promise<IdentitiesTable> {
  const bad = nulViolations(id);
  let relationship = id.relationship;
  if (typeof by === 'object') {
    bad.push(...identityFieldViolations(id));
    relationship = checkRelationship(relationship, by.allowInsecureIssuers, bad);
  }
  if (bad.length > 0) throw badIamRequest(bad);
  if (id.parent !== null) {
    const parent = await tx.selectFrom('groups').select('uid').where('uid', '=', id.parent).executeTakeFirst();
    if (!parent) throw groupNotFound(id.parent);
  }
  const now = nowIso();
  const row: IdentitiesTable = {
    uid: id.uid,
    parent_uid: id.parent,
    name: id.name,
    description: id.description,
    company: id.company,
    email: id.email,
    last_seen_time: now,
    create_time: now,
    update_time: now,
    ...storeRelationship(relationship),
  };
  await tx.insertInto('identities').values(row).execute();
  if (typeof by === 'object' && id.parent !== null) {
    await emitRpcEvent(tx, by.ctx, { group: id.parent, subject: row.uid, schema: IdentitySchema, message: identityFromRow(row) });
  }
  return row;
}
