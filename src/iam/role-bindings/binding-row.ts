// Role bindings are stored as bare uids and returned "hydrated": the identity,
// group and role they reference are read in the same query and embedded.
import { create } from '@bufbuild/protobuf';
import type { Kysely } from 'kysely';
import { RoleBindingSchema, type RoleBinding } from '../../gen/berth/iam/v2/role_bindings_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { Database } from '../../store/database.js';
import type { RoleBindingsTable } from '../iam-tables.js';
import { roleBindingNotFound } from '../errors.js';

export interface HydratedRow {
  uid: string;
  create_time: string;
  group_uid: string;
  group_name: string | null;
  group_description: string | null;
  identity_uid: string;
  identity_name: string | null;
  identity_description: string | null;
  identity_subject: string | null;
  identity_issuer: string | null;
  identity_email: string | null;
  role_uid: string;
  role_name: string | null;
  role_description: string | null;
}

/** Bindings joined with what they reference; left joins so a dangling reference still shows its uid. */
export function hydratedQuery(db: Kysely<Database>) {
  return db
    .selectFrom('role_bindings as rb')
    .leftJoin('identities as i', 'i.uid', 'rb.identity_uid')
    .leftJoin('groups as g', 'g.uid', 'rb.parent_uid')
    .leftJoin('roles as r', 'r.uid', 'rb.role_uid')
    .select([
      'rb.uid as uid',
      'rb.create_time as create_time',
      'rb.parent_uid as group_uid',
      'g.name as group_name',
      'g.description as group_description',
      'rb.identity_uid as identity_uid',
      'i.name as identity_name',
      'i.description as identity_description',
      'i.subject as identity_subject',
      'i.issuer as identity_issuer',
      'i.email as identity_email',
      'rb.role_uid as role_uid',
      'r.name as role_name',
      'r.description as role_description',
    ]);
}

/** identity_uid / role_uid are input-only and stay empty in responses. */
export function hydrate(row: HydratedRow): RoleBinding {
  return create(RoleBindingSchema, {
    uid: row.uid,
    identity: {
      uid: row.identity_uid,
      name: row.identity_name ?? '',
      description: row.identity_description ?? '',
      subject: row.identity_subject ?? '',
      issuer: row.identity_issuer ?? '',
      email: row.identity_email ?? '',
    },
    group: { uid: row.group_uid, name: row.group_name ?? '', description: row.group_description ?? '' },
    role: { uid: row.role_uid, name: row.role_name ?? '', description: row.role_description ?? '' },
    createTime: isoToTimestamp(row.create_time),
  });
}

export async function loadHydrated(db: Kysely<Database>, uid: string): Promise<RoleBinding> {
  const row = await hydratedQuery(db).where('rb.uid', '=', uid).executeTakeFirst();
  if (!row) throw roleBindingNotFound(uid);
  return hydrate(row);
}

/** Hydrates bindings already read from the table (list pages), in their order. */
export async function hydrateRows(db: Kysely<Database>, rows: readonly RoleBindingsTable[]): Promise<RoleBinding[]> {
  if (rows.length === 0) return [];
  const found = await hydratedQuery(db)
    .where(
      'rb.uid',
      'in',
      rows.map((r) => r.uid),
    )
    .execute();
  const byUid = new Map(found.map((r) => [r.uid, r]));
  return rows.flatMap((r) => {
    const h = byUid.get(r.uid);
    return h ? [hydrate(h)] : [];
  });
}
