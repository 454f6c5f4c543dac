import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

// Static-key assertions accepted by /sts/exchange, remembered until they expire
// so none is exchanged twice — on any instance. `id` is a sha256 (hex) of the
// assertion's issuer, subject and jti, or of the whole assertion without jti.
export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  const text = caps.keyText();
  await db.schema
    .createTable('used_assertions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('expire_time', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('used_assertions_expire').on('used_assertions').columns(['expire_time']).execute();
}
