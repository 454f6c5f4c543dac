// google.api.http path templates: literals, {field} (one segment) and
// {field=**} (one or more segments, so uids with "/" fit), then an optional
// ":verb". A template may hold several variables but at most one "**", so a
// match is decided without backtracking: the parts before the "**" take the
// leading segments one each, the parts after it the trailing ones, and the
// "**" the rest. Parsed once at start; matching compares segment lists.
export type TemplatePart = { literal: string } | { fieldPath: string; multi: boolean };

export interface PathTemplate {
  parts: TemplatePart[];
  verb?: string;
  /** The index of the "**" part, or -1. */
  star: number;
}

export function parseTemplate(template: string): PathTemplate {
  let path = template;
  let verb: string | undefined;
  const lastSlash = path.lastIndexOf('/');
  const colon = path.indexOf(':', lastSlash);
  if (colon >= 0 && !path.slice(colon).includes('}')) {
    verb = path.slice(colon + 1);
    path = path.slice(0, colon);
  }
  const parts: TemplatePart[] = [];
  for (const seg of path.split('/').slice(1)) {
    const m = /^\{([a-z0-9_.]+)(?:=([^}]*))?\}$/.exec(seg);
    if (!m) {
      if (seg.includes('{') || seg.includes('}')) throw new Error(`template ${template}: unsupported segment ${seg}`);
      parts.push({ literal: seg });
      continue;
    }
    const pattern = m[2] ?? '*';
    if (pattern !== '*' && pattern !== '**') throw new Error(`template ${template}: unsupported pattern ${pattern}`);
    if (parts.some((p) => 'fieldPath' in p && p.fieldPath === m[1])) throw new Error(`template ${template}: ${m[1]} appears twice`);
    if (pattern === '**' && parts.some((p) => 'multi' in p && p.multi)) throw new Error(`template ${template}: at most one ** variable`);
    parts.push({ fieldPath: m[1], multi: pattern === '**' });
  }
  return { parts, verb, star: parts.findIndex((p) => 'multi' in p && p.multi) };
}

/** The literal segments a template starts with ("/iam/v2/…" → ["iam", "v2"]). */
export function leadingLiterals(t: PathTemplate): string[] {
  const out: string[] = [];
  for (const p of t.parts) {
    if (!('literal' in p)) break;
    out.push(p.literal);
  }
  return out;
}

/**
 * Orders templates for matching, most specific first: a verb, then more
 * literal segments, then no "**", then more single-segment variables. So
 * `/repos/{uid=**}/digests/{digest}/size` is tried before `/repos/{uid=**}`,
 * which would otherwise swallow it (its "**" takes any number of segments).
 */
export function compareSpecificity(a: PathTemplate, b: PathTemplate): number {
  return rank(b) - rank(a);
}

function rank(t: PathTemplate): number {
  let literals = 0;
  let singles = 0;
  let multi = false;
  for (const p of t.parts) {
    if ('literal' in p) literals++;
    else if (p.multi) multi = true;
    else singles++;
  }
  return (t.verb ? 1_000_000 : 0) + literals * 1000 + (multi ? 0 : 100) + singles;
}

/**
 * Matches already-split path segments (without the leading "/"). Returns the
 * value of each variable by field path ({} for a template without any), or
 * undefined.
 */
export function matchTemplate(t: PathTemplate, segments: string[], verb: string | undefined): Record<string, string> | undefined {
  if (t.verb !== verb) return undefined;
  const star = t.star;
  if (star < 0 ? segments.length !== t.parts.length : segments.length < t.parts.length) return undefined;
  const out: Record<string, string> = {};
  const before = star < 0 ? t.parts.length : star;
  for (let i = 0; i < before; i++) if (!take(t.parts[i], segments[i], out)) return undefined;
  if (star < 0) return out;
  const after = t.parts.length - star - 1;
  for (let i = 0; i < after; i++) {
    if (!take(t.parts[star + 1 + i], segments[segments.length - after + i], out)) return undefined;
  }
  out[(t.parts[star] as { fieldPath: string }).fieldPath] = segments.slice(star, segments.length - after).join('/');
  return out;
}

function take(part: TemplatePart, segment: string, out: Record<string, string>): boolean {
  if ('literal' in part) return part.literal === segment;
  out[part.fieldPath] = segment;
  return true;
}
