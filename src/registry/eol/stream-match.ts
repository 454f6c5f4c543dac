// Which release stream a tag belongs to: the longest release name that is a
// prefix of the tag on a component boundary ("18.20.8-slim" → "18",
// "3.12-dev" → "3.12", never "3.1"); a tag that carries no version
// ("latest", "latest-dev", "slim") → the newest release; a version no
// release matches → none (the tag's stream is unknown).

export interface StreamName {
  name: string;
  /** 0 for the newest (endoflife.date lists releases newest first). */
  position: number;
}

// What may follow a stream's name in a tag: the end, or a separator.
const BOUNDARY = new Set(['', '.', '-', '_', '+']);

/** The tag without a leading "v" before a digit ("v18.1" → "18.1"), lower-cased. */
function versionText(tag: string): string {
  const t = tag.toLowerCase();
  return /^v\d/.test(t) ? t.slice(1) : t;
}

export function streamOf<R extends StreamName>(tag: string, releases: readonly R[]): R | undefined {
  const text = versionText(tag);
  let best: R | undefined;
  for (const r of releases) {
    const name = r.name.toLowerCase();
    if (name.length > text.length || !text.startsWith(name) || !BOUNDARY.has(text.charAt(name.length))) continue;
    if (!best || name.length > best.name.length) best = r;
  }
  if (best) return best;
  if (/^\d/.test(text)) return undefined;
  let newest: R | undefined;
  for (const r of releases) if (!newest || r.position < newest.position) newest = r;
  return newest;
}
