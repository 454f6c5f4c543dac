import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

// Refresh tokens handed out by /sts/exchange and rotated by
// /sts/exchange_refresh_token: their hashes, their chain and whether they were
// used (refresh-tokens.ts).
export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const text = caps.keyText();
  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('chain_id', text, (c) => c.notNull())
    .addColumn('identity_uid', text, (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('narrowing', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire_time', text, (c) => c.notNull())
    .addColumn('create_time', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_chain').on('refresh_tokens').columns(['chain_id']).execute();
  await db.schema.createIndex('refresh_tokens_identity').on('refresh_tokens').columns(['identity_uid']).execute();
  await db.schema.createIndex('refresh_tokens_expire').on('refresh_tokens').columns(['expire_time']).execute();
}
