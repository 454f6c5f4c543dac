// The path and query of a REST request's target. WHATWG URL parsing (new URL)
// was a visible share of every REST request (docs/performance.md); a target
// whose path holds only characters URL keeps as they are, with no dot segment
// (".", "..", or their %2e spellings, which URL resolves), not starting with
// "//" (which URL reads as a host), and a query with no fragment and no second
// leading "?" (which URLSearchParams would drop) parses to itself; only the
// others go through URL.
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

export interface RequestTarget {
  pathname: string;
  searchParams: URLSearchParams;
}

export function requestTarget(raw: string): RequestTarget {
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q + 1);
  if (PLAIN_PATH.test(path) && !path.startsWith('//') && !DOT_SEGMENT.test(path) && !query.includes('#') && !query.startsWith('?')) {
    return { pathname: path, searchParams: new URLSearchParams(query) };
  }
  const url = new URL(raw, 'http://berth.invalid');
  return { pathname: url.pathname, searchParams: url.searchParams };
}
