import type { Kysely } from 'kysely';
import type { DatabaseCapabilities } from '../../store/db-capabilities.js';

// Signing keys are rotated (berth admin signing-keys rotate): the newest live
// key signs, and an older one keeps verifying until its retire time, after
// which no instance publishes or accepts it. Null: not retiring.
export async function up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void> {
  await db.schema.alterTable('signing_keys').addColumn('retire_time', caps.keyText()).execute();
}
