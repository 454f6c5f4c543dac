// The order gc deletes a repo's dead manifests in: an index before the
// manifests it lists, and a subject before its referrers. The sweep deletes
// in batches and keeps a manifest that something outside the batch still
// lists or names as subject; in this order such things are already gone.
// Digests cannot form a cycle of listings, but listing and subject edges
// together can (rarely); what a cycle holds comes last, in digest order, and
// the sweep keeps whatever it then cannot prove unreferenced.

/**
 * `dead` in deletion order. `children`: index → what it lists; `referrers`:
 * subject → manifests naming it. Edges to manifests outside `dead` are ignored.
 */
export function orderForDeletion(dead: ReadonlySet<string>, children: ReadonlyMap<string, string[]>, referrers: ReadonlyMap<string, string[]>): string[] {
  const after = (d: string) => [...(children.get(d) ?? []), ...(referrers.get(d) ?? [])].filter((x) => dead.has(x));
  const waiting = new Map<string, number>();
  for (const d of dead) waiting.set(d, 0);
  for (const d of dead) for (const x of after(d)) waiting.set(x, (waiting.get(x) ?? 0) + 1);
  const ready = [...dead].filter((d) => waiting.get(d) === 0).sort();
  const out: string[] = [];
  const placed = new Set<string>();
  for (let head = 0; head < ready.length; head++) {
    const d = ready[head];
    out.push(d);
    placed.add(d);
    for (const x of after(d)) {
      const left = (waiting.get(x) ?? 0) - 1;
      waiting.set(x, left);
      if (left === 0) ready.push(x);
    }
  }
  return [...out, ...[...dead].filter((d) => !placed.has(d)).sort()];
}
