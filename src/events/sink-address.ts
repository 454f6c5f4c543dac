// Where Berth may send a delivery: the outbound policy (src/outbound/) with
// --allow-insecure-sinks allowing private and loopback addresses and plain
// http to loopback. A sink is checked twice: its URL when a subscription is
// created (sinkUrlProblem), and every address its host resolves to when the
// delivery worker connects (outbound-request.ts), so a name that resolves to
// a metadata or private address is refused as well.
import { type OutboundPolicy, outboundUrlProblem } from '../outbound/outbound-policy.js';

export const MAX_SINK_CHARS = 2048;

/** The outbound policy of deliveries; `allowInsecure` is --allow-insecure-sinks. */
export function sinkPolicy(allowInsecure: boolean): OutboundPolicy {
  return { allowPrivate: allowInsecure, flag: '--allow-insecure-sinks' };
}

/**
 * Why `url` cannot be a subscription's sink, or undefined when it can: an
 * absolute URL of at most 2048 characters without fragment that the outbound
 * policy allows (https; plain http only for a loopback host and only when
 * `allowInsecure`; no refused address, no user name or password).
 */
export function sinkUrlProblem(url: string, allowInsecure: boolean): string | undefined {
  if (url === '') return 'sink is required';
  if (url.length > MAX_SINK_CHARS) return `sink must be at most ${MAX_SINK_CHARS} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f]/.test(url)) return 'sink must not contain spaces or control characters';
  const parsed = URL.parse(url);
  if (!parsed) return 'sink must be an absolute URL';
  const problem = outboundUrlProblem(parsed, sinkPolicy(allowInsecure), 'sink');
  if (problem) return problem;
  if (url.includes('#')) return 'sink must not have a fragment';
  return undefined;
}
