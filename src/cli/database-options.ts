// What the admin commands that work on the database itself share: where the
// database is (--data or --database, as `berth serve` takes them), opening
// it for one piece of work, and the secrets key the servers run with.
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { Store } from '../store/store.js';

export interface DatabaseOptions {
  data: string;
  database?: string;
}

export function databaseOptions(cmd: Command): Command {
  return cmd
    .option('--data <dir>', 'data directory (SQLite file)', './data')
    .option('--database <url>', 'PostgreSQL URL (postgres://user:pass@host/db); default: SQLite in --data');
}

/** The PostgreSQL URL `o` names (--database, else BERTH_DATABASE_URL); undefined for SQLite in --data. */
export function databaseUrlOf(o: DatabaseOptions): string | undefined {
  return o.database ?? process.env.BERTH_DATABASE_URL;
}

/** Opens the database `o` names, runs `work` on it and closes it. */
export async function withStore<T>(o: DatabaseOptions, work: (store: Store) => Promise<T>): Promise<T> {
  // The store is loaded here: other commands start without it.
  const { openStore } = await import('../store/store.js');
  const store = await openStore({ databaseUrl: databaseUrlOf(o), dataDir: o.data });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The secrets key's text, from --secrets-key-file or else BERTH_SECRETS_KEY, as `berth serve` reads it; undefined when neither is given. */
export function secretsKeyText(file: string | undefined): string | undefined {
  return file !== undefined ? readFileSync(file, 'utf8') : process.env.BERTH_SECRETS_KEY || undefined;
}
