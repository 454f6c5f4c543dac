// What the three test renderers share: an advisory's latest event (the one
// wolfictl's projections publish), and the generator's documents as input.
import type { NormalizedAdvisory, NormalizedEvent } from '../../src/vulnerabilities/import/normalized-advisory.js';

export interface RenderDocument {
  origin: string;
  advisories: readonly NormalizedAdvisory[];
}

/** The newest event (events are oldest first, ties in order, so the last one). */
export function latestEvent(a: NormalizedAdvisory): NormalizedEvent | undefined {
  let latest: NormalizedEvent | undefined;
  for (const e of a.events) if (!latest || e.time >= latest.time) latest = e;
  return latest;
}

/** Rows of a document grouped by CGA id, in first-seen order. */
export function byAdvisoryId(advisories: readonly NormalizedAdvisory[]): Map<string, NormalizedAdvisory[]> {
  const groups = new Map<string, NormalizedAdvisory[]>();
  for (const a of advisories) groups.set(a.advisoryId, [...(groups.get(a.advisoryId) ?? []), a]);
  return groups;
}
