// An identity's metadata as the API shows it: uid, name and company are the
// identity's own columns; the rest is one proto JSON object in
// identity_metadata (migration 0029), absent until the identity sets any.
import { create, fromJson, toJson, type JsonObject } from '@bufbuild/protobuf';
import { IdentityMetadataSchema, type IdentityMetadata } from '../../gen/berth/iam/v2/identities_pb.js';
import type { FieldViolation } from '../../core/api-error.js';
import type { Executor } from '../../store/transact.js';
import type { IdentitiesTable } from '../iam-tables.js';
import { MAX_COMPANY } from './identity-row.js';

const MAX_TEXT = 255;
const MAX_URL = 2048;
const URL_FIELDS = new Set(['latest_form_submit_url', 'latest_internal_referring_url']);

export async function loadMetadata(db: Executor, identity: IdentitiesTable): Promise<IdentityMetadata> {
  const row = await db.selectFrom('identity_metadata').select('fields').where('identity_uid', '=', identity.uid).executeTakeFirst();
  const stored = row ? fromJson(IdentityMetadataSchema, JSON.parse(row.fields) as JsonObject, { ignoreUnknownFields: true }) : create(IdentityMetadataSchema);
  return { ...stored, uid: identity.uid, name: identity.name, givenName: '', familyName: '', company: identity.company };
}

/** The JSON kept in identity_metadata: every field but the identity's own. */
export function storedFields(m: IdentityMetadata): string {
  const own = create(IdentityMetadataSchema, { ...m, uid: '', name: '', givenName: '', familyName: '', company: '' });
  return JSON.stringify(toJson(IdentityMetadataSchema, own));
}

export function metadataViolations(m: IdentityMetadata): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const f of IdentityMetadataSchema.fields) {
    if (f.fieldKind !== 'scalar' || typeof m[f.localName as keyof IdentityMetadata] !== 'string') continue;
    const value = m[f.localName as keyof IdentityMetadata] as string;
    const max = f.name === 'company' ? MAX_COMPANY : URL_FIELDS.has(f.name) ? MAX_URL : MAX_TEXT;
    if (value.length > max) out.push({ field: `identity_metadata.${f.name}`, description: `${f.name} must be at most ${max} characters` });
  }
  return out;
}
