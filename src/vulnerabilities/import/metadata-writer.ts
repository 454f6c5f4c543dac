// Writes vulnerability metadata: an upsert by id, in batches, each batch one
// transaction. A row whose content is what is stored is not written at all,
// so a re-import changes nothing (update_time and the table's version stay).
import type { Store } from '../../store/store.js';
import { transact } from '../../store/transact.js';
import type { VulnerabilityMetadataTable } from '../metadata-tables.js';
import type { VulnerabilityMetadataRecord } from './osv-metadata.js';

export interface MetadataWriteSummary {
  added: number;
  changed: number;
  unchanged: number;
}

type Content = Omit<VulnerabilityMetadataTable, 'update_time'>;

function content(r: VulnerabilityMetadataRecord): Content {
  return { id: r.id, summary: r.summary, details: r.details, refs: JSON.stringify(r.refs), severities: JSON.stringify(r.severities), modified: r.modified };
}

function same(a: Content, b: Content): boolean {
  return a.summary === b.summary && a.details === b.details && a.refs === b.refs && a.severities === b.severities && a.modified === b.modified;
}

/**
 * Upserts `records` (one batch: the caller bounds its size). When an id comes
 * twice the later `modified` wins. With dryRun, counts what would change and
 * writes nothing.
 */
export async function writeVulnerabilityMetadata(
  store: Store,
  records: readonly VulnerabilityMetadataRecord[],
  dryRun: boolean,
): Promise<MetadataWriteSummary> {
  const byId = new Map<string, Content>();
  for (const r of records) {
    const seen = byId.get(r.id);
    if (!seen || seen.modified <= r.modified) byId.set(r.id, content(r));
  }
  const summary: MetadataWriteSummary = { added: 0, changed: 0, unchanged: 0 };
  if (byId.size === 0) return summary;
  const now = new Date().toISOString();
  await transact(store, async (tx) => {
    const stored = await tx
      .selectFrom('vulnerability_metadata')
      .select(['id', 'summary', 'details', 'refs', 'severities', 'modified'])
      .where('id', 'in', [...byId.keys()])
      .execute();
    const existing = new Map(stored.map((s) => [s.id, s]));
    for (const row of byId.values()) {
      const old = existing.get(row.id);
      if (old && same(old, row)) {
        summary.unchanged++;
        continue;
      }
      if (old) summary.changed++;
      else summary.added++;
      if (dryRun) continue;
      if (old)
        await tx
          .updateTable('vulnerability_metadata')
          .set({ ...row, update_time: now })
          .where('id', '=', row.id)
          .execute();
      else
        await tx
          .insertInto('vulnerability_metadata')
          .values({ ...row, update_time: now })
          .execute();
    }
  });
  return summary;
}
