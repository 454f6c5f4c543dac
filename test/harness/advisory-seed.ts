// Plants advisories and vulnerability metadata in a running Berth's database
// the way the writers do (the foundation's advisoryUid, eventRow,
// writeAliases, inside transact()), for states no YAML import can make:
// pending, rejected and patched events, rows of one CGA id with different
// aliases, an operator's advisory in an ordinary group — and metadata until
// `berth advisories import-metadata` exists. The feed group is the
// organization first start made (as for an import). Imported feeds are
// tested through the CLI (test/api/advisory-feed-import.test.ts).
import { advisoryUid, eventUid } from '../../src/vulnerabilities/advisory-ids.js';
import { advisoryRow, eventHash, eventRow, refreshLatestEventType, writeAliases } from '../../src/vulnerabilities/advisory-rows.js';
import type { NormalizedAdvisory } from '../../src/vulnerabilities/import/normalized-advisory.js';
import { openStore, type Store } from '../../src/store/store.js';
import { transact } from '../../src/store/transact.js';
import type { Berth } from './berth-process.js';

async function withStore<T>(berth: Pick<Berth, 'dataDir' | 'databaseUrl'>, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: berth.dataDir, databaseUrl: berth.databaseUrl, poolSize: 2 });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Writes advisories (rows, aliases, events) under `group` as an import of `source` would; returns their uids in order. */
export async function writeAdvisories(
  berth: Pick<Berth, 'dataDir' | 'databaseUrl'>,
  group: string,
  advisories: readonly NormalizedAdvisory[],
  source = 'yaml',
) {
  const now = new Date().toISOString();
  return withStore(berth, (store) =>
    transact(store, async (tx) => {
      const uids: string[] = [];
      for (const a of advisories) {
        const uid = advisoryUid(group, a);
        uids.push(uid);
        await tx
          .insertInto('advisories')
          .values(
            advisoryRow(a, {
              uid,
              group,
              source,
              sourceFile: `${a.origin}.advisories.yaml`,
              latestEventType: 0,
              createTime: now,
              updateTime: now,
            }),
          )
          .execute();
        await writeAliases(tx, uid, a.aliases);
        for (const e of a.events)
          await tx
            .insertInto('advisory_events')
            .values(eventRow(uid, eventUid(uid, eventHash(e)), e, now))
            .execute();
        await refreshLatestEventType(tx, uid);
      }
      return uids;
    }),
  );
}

export interface MetadataSeed {
  id: string;
  summary: string;
  details: string;
  /** proto3 JSON of berth.advisory.v2.Reference. */
  references: Array<{ type: string; url: string }>;
  /** proto3 JSON of berth.advisory.v2.Severity. */
  severities: Array<{ type: string; score: string }>;
  modified: string;
}

/** Writes vulnerability metadata rows as `berth advisories import-metadata` would. */
export async function writeMetadata(berth: Pick<Berth, 'dataDir' | 'databaseUrl'>, rows: readonly MetadataSeed[]): Promise<void> {
  const now = new Date().toISOString();
  await withStore(berth, (store) =>
    transact(store, async (tx) => {
      for (let i = 0; i < rows.length; i += 200) {
        await tx
          .insertInto('vulnerability_metadata')
          .values(
            rows.slice(i, i + 200).map((m) => ({
              id: m.id,
              summary: m.summary,
              details: m.details,
              refs: JSON.stringify(m.references),
              severities: JSON.stringify(m.severities),
              modified: m.modified,
              update_time: now,
            })),
          )
          .execute();
      }
    }),
  );
}
