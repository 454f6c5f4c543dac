// Durations given on the command line for long periods: a whole number with
// a unit — ms, s, m, h or d (0s, 90s, 30m, 1h, 7d) — or a bare number of seconds.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The duration in ms, or an Error naming the flag when it does not parse or lies outside [minMs, maxMs]. */
export function parseDurationFlag(flag: string, value: string, minMs: number, maxMs: number): number {
  const m = /^(\d{1,12})(ms|s|m|h|d)?$/.exec(value.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] ?? 's'] : Number.NaN;
  if (!(ms >= minMs && ms <= maxMs)) {
    throw new Error(
      `${flag} must be a duration such as 0s, 30m, 1h or 7d (from ${minMs} ms to ${maxMs / 86_400_000} days), got ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  return ms;
}
