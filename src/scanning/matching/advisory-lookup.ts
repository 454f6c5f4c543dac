// What matching reads of the advisories, looked up by (ecosystem, package)
// key and kept for the life of one lookup: the range rows of the keys asked
// for (a few batched IN lists over the advisory_ranges_package index) and the
// vulnerability metadata of the ids they name. One image's match makes one
// and drops it; a re-match of many images after an advisory change shares
// one, so each changed key is read once however many images hold it.
// Rows are read for every organization; matching narrows them to a scope in
// memory (match-inventory.ts, inScope) before anything else looks at them.
import { statementChunks } from '../../store/statement-chunks.js';
import type { Executor, Tx } from '../../store/transact.js';

const NAME_CHUNK = 500;

export interface RangeRow {
  advisory_uid: string;
  package: string;
  scheme: string;
  status: string;
  introduced: string;
  fixed: string;
  last_affected: string;
  advisory_id: string;
  /** JSON array of the advisory's aliases. */
  aliases: string;
  source: string;
  /** The group the advisory was imported or created in. */
  parent_uid: string;
}

export interface MetadataRow {
  id: string;
  summary: string;
  details: string;
  refs: string;
  severities: string;
}

const keyOf = (ecosystem: string, name: string) => `${ecosystem}\u0000${name}`;

export class AdvisoryLookup {
  private readonly ranges = new Map<string, RangeRow[]>();
  private readonly metadata = new Map<string, MetadataRow | null>();

  constructor(private readonly db: Executor | Tx) {}

  /** Reads the rows of the keys not read yet. */
  async load(wanted: ReadonlyMap<string, Iterable<string>>): Promise<void> {
    for (const [ecosystem, names] of wanted) {
      const missing = [...names].filter((n) => !this.ranges.has(keyOf(ecosystem, n)));
      for (const part of statementChunks(missing, NAME_CHUNK)) {
        for (const n of part) this.ranges.set(keyOf(ecosystem, n), []);
        const rows = await this.db
          .selectFrom('advisory_ranges as r')
          .innerJoin('advisories as a', 'a.uid', 'r.advisory_uid')
          .select([
            'r.advisory_uid',
            'r.package',
            'r.scheme',
            'r.status',
            'r.introduced',
            'r.fixed',
            'r.last_affected',
            'a.advisory_id',
            'a.aliases',
            'a.source',
            'a.parent_uid',
          ])
          .where('r.ecosystem', '=', ecosystem)
          .where('r.package', 'in', part)
          .execute();
        for (const r of rows) this.ranges.get(keyOf(ecosystem, r.package))?.push(r);
      }
    }
  }

  /** The rows of a key (load it first). */
  rows(ecosystem: string, name: string): readonly RangeRow[] {
    return this.ranges.get(keyOf(ecosystem, name)) ?? [];
  }

  /** The metadata of `ids`, reading those not read yet. */
  async metadataOf(ids: Iterable<string>): Promise<Map<string, MetadataRow>> {
    const wanted = [...new Set(ids)];
    const missing = wanted.filter((id) => !this.metadata.has(id));
    for (const part of statementChunks(missing, NAME_CHUNK)) {
      for (const id of part) this.metadata.set(id, null);
      for (const m of await this.db
        .selectFrom('vulnerability_metadata')
        .select(['id', 'summary', 'details', 'refs', 'severities'])
        .where('id', 'in', part)
        .execute())
        this.metadata.set(m.id, m);
    }
    const out = new Map<string, MetadataRow>();
    for (const id of wanted) {
      const m = this.metadata.get(id);
      if (m) out.set(id, m);
    }
    return out;
  }
}
