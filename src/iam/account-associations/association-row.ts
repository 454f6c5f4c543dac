// Account associations as stored: the plain fields in columns, the provider
// settings (amazon, google, azure, github) as one proto JSON document, read
// back with the message's own schema so nothing is lost or invented.
import { create, fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import { AccountAssociationSchema, type AccountAssociation } from '../../gen/berth/iam/v2/account_associations_pb.js';
import { isoToTimestamp } from '../../core/clock.js';
import type { Executor } from '../../store/transact.js';
import type { AccountAssociationsTable } from '../iam-tables.js';
import { accountAssociationNotFound } from '../errors.js';

type Providers = Pick<AccountAssociation, 'amazon' | 'google' | 'azure' | 'github'>;

export function storeProviders(a: Providers): string {
  const only = create(AccountAssociationSchema, { amazon: a.amazon, google: a.google, azure: a.azure, github: a.github });
  return JSON.stringify(toJson(AccountAssociationSchema, only));
}

function loadProviders(json: string): Providers {
  const m = fromJson(AccountAssociationSchema, JSON.parse(json) as JsonValue);
  return { amazon: m.amazon, google: m.google, azure: m.azure, github: m.github };
}

export function associationFromRow(row: AccountAssociationsTable): AccountAssociation {
  return create(AccountAssociationSchema, {
    uid: row.uid,
    name: row.name,
    description: row.description,
    ...loadProviders(row.providers),
    createTime: isoToTimestamp(row.create_time),
    updateTime: isoToTimestamp(row.update_time),
  });
}

export async function loadAssociationRow(db: Executor, uid: string): Promise<AccountAssociationsTable> {
  const row = await db.selectFrom('account_associations').selectAll().where('uid', '=', uid).executeTakeFirst();
  if (!row) throw accountAssociationNotFound(uid);
  return row;
}
