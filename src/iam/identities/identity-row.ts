import { create } from '@bufbuild/protobuf';
import { IdentitySchema, type Identity } from '../../gen/berth/iam/v2/identities_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { IdentitiesTable } from '../iam-tables.js';
import type { Executor } from '../../store/transact.js';
import { identityNotFound } from '../errors.js';
import { loadRelationship } from './relationship.js';
import { compiledQuery, runCompiled } from '../../store/compiled-queries.js';

const IDENTITY_BY_UID = compiledQuery('identity by uid');

// The pattern and its wording are the contract's, byte for byte.
const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;
const NAME_RULE = 'name must match "^[a-z0-9 ._-]{1,}$"';
export const MAX_NAME = 63;
export const MAX_DESCRIPTION = 1000;
export const MAX_COMPANY = 255;

export function identityFromRow(row: IdentitiesTable): Identity {
  return create(IdentitySchema, {
    uid: row.uid,
    name: row.name,
    description: row.description,
    company: row.company,
    email: row.email,
    emailUnverified: '',
    lastSeenTime: isoToTimestamp(row.last_seen_time),
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
    relationship: loadRelationship(row),
  });
}

export async function loadIdentityRow(db: Executor, uid: string): Promise<IdentitiesTable> {
  const [row] = await runCompiled<IdentitiesTable>(db, IDENTITY_BY_UID, [uid], ([u]) =>
    db
      .selectFrom('identities')
      .selectAll()
      .where('uid', '=', u as string),
  );
  if (!row) throw identityNotFound(uid);
  return row;
}

/** Violations of the plain fields. The contract names the name field `name`, not `identity.name`. */
export function identityFieldViolations(id: Pick<Identity, 'name' | 'description' | 'company'>): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (!NAME_PATTERN.test(id.name)) out.push({ field: 'name', description: NAME_RULE });
  else if (id.name.length > MAX_NAME) out.push({ field: 'name', description: `name must be at most ${MAX_NAME} characters` });
  if (id.description.length > MAX_DESCRIPTION) out.push({ field: 'description', description: `description must be at most ${MAX_DESCRIPTION} characters` });
  if (id.company.length > MAX_COMPANY) out.push({ field: 'company', description: `company must be at most ${MAX_COMPANY} characters` });
  return out;
}
