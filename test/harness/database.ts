// Direct access to a running Berth's database, for tests that must plant a
// state no API call can create (rows written before a rule existed) or check
// what is stored at rest. Works on the SQLite file and on PostgreSQL alike.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Berth } from './berth-process.js';

/** Runs one statement with $1… parameters; returns the rows. */
export async function sqlQuery(berth: Pick<Berth, 'dataDir' | 'databaseUrl'>, text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (berth.databaseUrl) {
    const client = new pg.Client({ connectionString: berth.databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  }
  const db = new DatabaseSync(join(berth.dataDir, 'berth.db'), { timeout: 10_000 });
  try {
    const stmt = db.prepare(text.replace(/\$(\d+)/g, '?$1')); // ?NNN: a parameter may repeat
    if (stmt.columns().length === 0) {
      stmt.run(...(params as never[]));
      return [];
    }
    return (stmt.all(...(params as never[])) as Record<string, unknown>[]).map((r) => ({ ...r })); // plain objects, as pg returns
  } finally {
    db.close();
  }
}
