// The two range headers of the distribution API: a blob GET's `Range:
// bytes=a-b` (RFC 9110, one range; `bytes=a-` and `bytes=-n` too) and an
// upload PATCH's `Content-Range: a-b` (the spec's form, inclusive, no unit;
// `bytes a-b[/n]` accepted as well).

export type RangeRequest = { kind: 'all' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

/** The bytes a blob GET asks for, of a blob of `size` bytes. A header that does not parse is ignored (RFC 9110). */
export function requestedRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'all' };
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'all' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}

/** An upload chunk's inclusive range, undefined when absent; null when it does not parse. */
export function chunkRange(header: string | undefined): { start: number; end: number } | undefined | null {
  if (header === undefined) return undefined;
  const m = /^(?:bytes[ =])?(\d{1,15})-(\d{1,15})(?:\/(?:\d{1,15}|\*))?$/.exec(header.trim());
  if (!m) return null;
  const start = Number(m[1]);
  const end = Number(m[2]);
  return end < start ? null : { start, end };
}

/** The `Range` header of an upload's status: the bytes received, `0-(size-1)`, as distribution writes it (`0-0` when empty). */
export function receivedRange(size: number): string {
  return `0-${size > 0 ? size - 1 : 0}`;
}
