// Numbered, forward-only migrations, run on start under Kysely's migration lock
// (an advisory lock on PostgreSQL), so instances starting together apply each once.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/0001-initial.js';
import * as tableVersions from './migrations/0002-table-versions.js';
import * as usedAssertions from './migrations/0003-used-assertions.js';
import type { Store, Dialect } from './store.js';

type Step = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

const STEPS: Record<string, Step> = {
  '0001-initial': initial,
  '0002-table-versions': tableVersions,
  '0003-used-assertions': usedAssertions,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, step] of Object.entries(STEPS)) out[name] = { up: (db) => step.up(db, this.dialect) };
    return out;
  }
}

export async function migrate(store: Store): Promise<void> {
  const migrator = new Migrator({ db: store.db, provider: new StaticProvider(store.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}
