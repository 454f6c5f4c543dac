import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

// Refresh tokens carry their grant, sealed with a MAC, so issuing one writes
// nothing (refresh-tokens.ts). Rotation keeps one row per chain that was
// rotated or revoked: the generation it takes next, whether it is revoked, and
// until when the row matters (its newest token's expiry; for a revoked chain,
// the last expiry any of its tokens can have).
export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const text = caps.keyText();
  await db.schema
    .createTable('refresh_chains')
    .addColumn('chain_id', text, (c) => c.primaryKey())
    .addColumn('next_generation', 'integer', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire_time', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_chains_expire').on('refresh_chains').columns(['expire_time']).execute();
}
