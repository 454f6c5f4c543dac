// Numbered, forward-only migrations, run on start under Kysely's migration lock
// (an advisory lock on PostgreSQL, a lock file on SQLite), so instances
// starting together apply each once. Each domain keeps its migrations in its
// own folder (src/<domain>/migrations/NNNN-name.ts); they are found there, so
// adding a table edits no shared list. Names are global: the number orders
// them across domains (a domain's tables may reference another's).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseCapabilities } from './db-capabilities.js';
import type { Store } from './store.js';

/** What a migration module exports. */
export interface MigrationStep {
  up(db: Kysely<unknown>, caps: DatabaseCapabilities): Promise<void>;
}

const SOURCE_ROOT = join(import.meta.dirname, '..');
const NAME = /^\d{4}-[a-z0-9-]+\.js$/;

/** Every src/<folder>/migrations/NNNN-*.js, by name; a name used twice is an error. */
export function migrationFiles(root = SOURCE_ROOT): Map<string, string> {
  const out = new Map<string, string>();
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    let names: string[];
    try {
      names = readdirSync(join(root, folder.name, 'migrations'));
    } catch {
      continue; // this folder has no migrations
    }
    for (const file of names.filter((n) => NAME.test(n))) {
      const name = file.slice(0, -3);
      const path = join(root, folder.name, 'migrations', file);
      if (out.has(name)) throw new Error(`migration ${name} exists twice: ${out.get(name)} and ${path}`);
      out.set(name, path);
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

class FolderProvider implements MigrationProvider {
  constructor(private readonly caps: DatabaseCapabilities) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, path] of migrationFiles()) {
      const step = (await import(pathToFileURL(path).href)) as MigrationStep;
      out[name] = { up: (db) => step.up(db, this.caps) };
    }
    return out;
  }
}

export async function migrate(store: Store): Promise<void> {
  const migrator = new Migrator({ db: store.db, provider: new FolderProvider(store.caps) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown');
    throw new Error(`database migration${failed ? ` ${failed.migrationName}` : 's'} failed: ${cause}`);
  }
}

/** The migrations this code knows that the database has not run (for readiness: another instance may be migrating). */
export async function pendingMigrations(store: Store): Promise<string[]> {
  const migrator = new Migrator({ db: store.db, provider: new FolderProvider(store.caps) });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
