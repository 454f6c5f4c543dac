// The CVSS severities of resolved vulnerabilities, from the imported
// vulnerability metadata (stored as berth.advisory.v2.Severity JSON): the
// first of the id and its aliases that has any; a single TYPE_UNSPECIFIED
// entry when none has, as the v1 proto says.
import { statementChunks } from '../../store/statement-chunks.js';
import type { Executor } from '../../store/transact.js';

/** As stored: type is the v2 enum's name (TYPE_CVSS_V3, …). */
export interface StoredSeverity {
  type: string;
  score: string;
}

export const UNSPECIFIED: readonly StoredSeverity[] = [{ type: 'TYPE_UNSPECIFIED', score: '' }];

export async function severitiesOf(ex: Executor, ids: readonly string[]): Promise<Map<string, StoredSeverity[]>> {
  const out = new Map<string, StoredSeverity[]>();
  for (const part of statementChunks([...new Set(ids)])) {
    for (const m of await ex.selectFrom('vulnerability_metadata').select(['id', 'severities']).where('id', 'in', part).execute()) {
      try {
        const list = (JSON.parse(m.severities) as Partial<StoredSeverity>[]).filter((s) => typeof s.type === 'string' && typeof s.score === 'string');
        if (list.length > 0) out.set(m.id, list as StoredSeverity[]);
      } catch {
        // A row that is not the stored JSON form has no severities to give.
      }
    }
  }
  return out;
}

/** The severities of the first of `ids` that has any. */
export function firstSeverities(known: Map<string, StoredSeverity[]>, ids: readonly string[]): readonly StoredSeverity[] {
  for (const id of ids) {
    const s = known.get(id);
    if (s) return s;
  }
  return UNSPECIFIED;
}
