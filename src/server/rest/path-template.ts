// google.api.http path templates: literals, {field} (one segment) and
// {field=**} (one or more segments, so uids with "/" fit), then an optional
// ":verb". Parsed once at start; matching is a comparison of segment lists.
export interface PathTemplate {
  /** Literal segments before the variable. */
  prefix: string[];
  /** Literal segments after the variable. */
  suffix: string[];
  /** The variable's field path (e.g. "repo.uid"), if any. */
  variable?: { fieldPath: string; multi: boolean };
  verb?: string;
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
  const segments = path.split('/').slice(1);
  const out: PathTemplate = { prefix: [], suffix: [], verb };
  for (const seg of segments) {
    const m = /^\{([a-z0-9_.]+)(?:=([^}]*))?\}$/.exec(seg);
    if (m) {
      if (out.variable) throw new Error(`template ${template}: only one variable is supported`);
      const pattern = m[2] ?? '*';
      if (pattern !== '*' && pattern !== '**') throw new Error(`template ${template}: unsupported pattern ${pattern}`);
      out.variable = { fieldPath: m[1], multi: pattern === '**' };
    } else if (out.variable) {
      out.suffix.push(seg);
    } else {
      out.prefix.push(seg);
    }
  }
  return out;
}

/** How specific a template is: routes with more literals are tried first. */
export function specificity(t: PathTemplate): number {
  return (t.verb ? 1000 : 0) + (t.prefix.length + t.suffix.length) * 10 + (t.variable ? 0 : 5);
}

/**
 * Matches already-split path segments (without the leading "/"). Returns the
 * variable's raw value ("" when the template has none), or undefined.
 */
export function matchTemplate(t: PathTemplate, segments: string[], verb: string | undefined): string | undefined {
  if (t.verb !== verb) return undefined;
  const fixed = t.prefix.length + t.suffix.length;
  if (!t.variable) {
    if (segments.length !== fixed) return undefined;
  } else if (segments.length < fixed + 1 || (!t.variable.multi && segments.length !== fixed + 1)) {
    return undefined;
  }
  for (let i = 0; i < t.prefix.length; i++) if (segments[i] !== t.prefix[i]) return undefined;
  for (let i = 0; i < t.suffix.length; i++) {
    if (segments[segments.length - t.suffix.length + i] !== t.suffix[i]) return undefined;
  }
  if (!t.variable) return '';
  return segments.slice(t.prefix.length, segments.length - t.suffix.length).join('/');
}
