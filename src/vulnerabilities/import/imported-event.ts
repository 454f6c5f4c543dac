// What every JSON importer shares: its options, how it stamps an imported
// event (author "import:<format>", approved, no reviewer: published data is
// approved by its publisher), and how rows that came out with the same
// identity are merged into one.
import type { EventKind } from '../event-kinds.js';
import type { JsonObject, NormalizedAdvisory, NormalizedEvent } from './normalized-advisory.js';

export interface FormatOptions {
  /** Architectures for records that name none (`--arch`). */
  arch: readonly string[];
  /** package_namespace of every advisory (`--namespace`; '' when not given). */
  namespace: string;
}

export type JsonFormat = 'osv' | 'secdb' | 'openvex';

export function importedEvent(format: JsonFormat, time: string, kind: EventKind, payload: JsonObject): NormalizedEvent {
  return { time, kind, payload, author: `import:${format}`, reviewer: '', reviewState: 'REVIEW_STATE_APPROVED' };
}

function identity(a: NormalizedAdvisory): string {
  return JSON.stringify([a.advisoryId, a.artifactName, a.artifactArchitecture, a.componentName, a.componentLocation]);
}

function eventKey(e: NormalizedEvent): string {
  return JSON.stringify([e.time, e.kind, e.payload]);
}

/**
 * One row per identity: aliases unioned, events unioned without duplicates
 * and sorted oldest first (stable). A source may name the same advisory
 * twice (two ranges, two secfixes versions); the store has one row.
 */
export function mergeRows(rows: readonly NormalizedAdvisory[]): NormalizedAdvisory[] {
  const byKey = new Map<string, NormalizedAdvisory>();
  for (const row of rows) {
    const key = identity(row);
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { ...row, aliases: [...row.aliases], events: [...row.events] });
      continue;
    }
    seen.aliases = [...new Set([...seen.aliases, ...row.aliases])];
    if (row.affected) {
      const intervals = [...(seen.affected?.intervals ?? []), ...row.affected.intervals];
      const unique = [...new Map(intervals.map((i) => [JSON.stringify(i), i])).values()];
      seen.affected = { ...row.affected, intervals: unique };
    }
    const have = new Set(seen.events.map(eventKey));
    for (const e of row.events) if (!have.has(eventKey(e))) seen.events.push(e);
  }
  const out = [...byKey.values()];
  for (const a of out) {
    a.aliases = [...new Set(a.aliases)].filter((x) => x !== a.advisoryId).sort();
    a.events = a.events
      .map((e, i) => ({ e, i }))
      .sort((x, y) => (x.e.time < y.e.time ? -1 : x.e.time > y.e.time ? 1 : x.i - y.i))
      .map((x) => x.e);
  }
  return out;
}
