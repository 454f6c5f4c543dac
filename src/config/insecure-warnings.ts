// What `berth serve` warns about at start: switches meant for local testing,
// and a listener that speaks cleartext HTTP on an address other machines can
// reach (tokens and registry passwords would cross the network readable).
import net from 'node:net';

export interface ListenerExposure {
  /** The flag that set its address: `--listen`, `--registry-listen`. */
  flag: string;
  host: string;
  tls: boolean;
}

export interface InsecureWarning {
  flag: string;
  message: string;
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  if (net.isIPv6(h)) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

export function insecureWarnings(s: { allowInsecureSinks: boolean; allowInsecureIssuers: boolean; listeners: readonly ListenerExposure[] }): InsecureWarning[] {
  const warnings: InsecureWarning[] = [];
  if (s.allowInsecureSinks) {
    warnings.push({
      flag: '--allow-insecure-sinks',
      message: 'event subscriptions may deliver to loopback and private addresses and over plain http: for local testing only',
    });
  }
  if (s.allowInsecureIssuers) {
    warnings.push({
      flag: '--allow-insecure-issuers',
      message: 'tokens from OIDC issuers on loopback and private addresses, and over plain http, are accepted: for local testing only',
    });
  }
  for (const l of s.listeners) {
    if (l.tls || isLoopback(l.host)) continue;
    warnings.push({
      flag: l.flag,
      message: `cleartext HTTP on ${l.host}, an address other machines may reach: tokens and passwords cross the network unencrypted. Give the listener a certificate, or put a TLS-terminating proxy in front on 127.0.0.1 (docs/operations.md)`,
    });
  }
  return warnings;
}
