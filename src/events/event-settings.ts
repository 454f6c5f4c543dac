// How this Berth process emits and delivers events (the serve command's
// --event-* and --allow-insecure-sinks flags, and --audit-retention).

export interface EventSettings {
  /** Prefix of every CloudEvent type (--event-namespace). */
  namespace: string;
  /** The aud claim of delivery tokens (--event-audience). */
  audience: string;
  /** Plain-http sinks on loopback hosts (--allow-insecure-sinks; local testing only). */
  allowInsecureSinks: boolean;
  /** How long a delivery is retried before it is marked dead (--event-max-age). */
  maxAgeMs: number;
  /** How long delivered rows are kept in the delivery log (--event-retention). */
  retentionMs: number;
  /** How long audit entries are kept (--audit-retention; the audit log is written with the outbox). */
  auditRetentionMs: number;
}

export const DEFAULT_EVENT_SETTINGS: EventSettings = {
  namespace: 'dev.berth',
  audience: 'customer',
  allowInsecureSinks: false,
  maxAgeMs: 24 * 3_600_000,
  retentionMs: 7 * 24 * 3_600_000,
  auditRetentionMs: 90 * 24 * 3_600_000,
};
