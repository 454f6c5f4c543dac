// A blob read's byte range, checked once for every driver: a bad range is a
// caller's bug (the routes parse Range headers before), so it throws.
export function checkedRange(range: { offset: number; end?: number } | undefined): { offset: number; end?: number } {
  const offset = range?.offset ?? 0;
  const end = range?.end;
  if (!Number.isSafeInteger(offset) || offset < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < offset))) {
    throw new RangeError('invalid blob range');
  }
  return { offset, end };
}
