// The process's Prometheus metrics (prom-client), made once by `enableMetrics`
// when the server starts with metrics on. Every recording site asks
// `metrics()` and records nothing when it is undefined, so a process with
// metrics off (and every command that is not `berth serve`) pays one
// undefined check. Labels are bounded sets only: route templates, never paths.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { KeyedHistogram } from './keyed-metrics.js';

const HTTP_LABELS = ['listener', 'method', 'route', 'status'] as const;
/** Seconds: the buckets of every latency histogram. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A value read when Prometheus scrapes: labels to value (an empty label set for a single value). */
export type GaugeReader = () => Promise<ReadonlyArray<{ labels: Record<string, string>; value: number }>>;

export class Metrics {
  readonly registry = new Registry();
  /** Keyed (keyed-metrics.ts), as every request records it; also read as berth_http_requests_total (the constructor). */
  readonly httpDuration = new KeyedHistogram(
    'berth_http_request_duration_seconds',
    'Time from a request’s arrival to the end of its answer, by listener, method, route template and status',
    HTTP_LABELS,
    LATENCY_BUCKETS,
    this.registry,
  );
  readonly registryReceived = new Counter({
    name: 'berth_registry_received_bytes_total',
    help: 'Bytes the registry listener read from clients (request lines, headers and bodies)',
    registers: [this.registry],
  });
  readonly registrySent = new Counter({
    name: 'berth_registry_sent_bytes_total',
    help: 'Bytes the registry listener wrote to clients (status lines, headers and bodies)',
    registers: [this.registry],
  });
  readonly uploadsInProgress = new Gauge({
    name: 'berth_registry_uploads_in_progress',
    help: 'Blob upload requests (POST, PATCH, PUT of an upload) being served',
    registers: [this.registry],
  });
  readonly blobDuration = new Histogram({
    name: 'berth_blob_store_operation_duration_seconds',
    help: 'Blob store operations by operation and outcome (ok, error); a read until its stream is open',
    labelNames: ['operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly blobErrors = new Counter({
    name: 'berth_blob_store_errors_total',
    help: 'Blob store operations that failed, by operation',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  readonly dbDuration = new KeyedHistogram(
    'berth_db_query_duration_seconds',
    'Database statements by kind (select, insert, update, delete, other) and outcome (ok, error)',
    ['operation', 'outcome'] as const,
    LATENCY_BUCKETS,
    this.registry,
  );
  readonly dbErrors = new Counter({
    name: 'berth_db_query_errors_total',
    help: 'Database statements that failed, by kind',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  readonly deliveries = new Counter({
    name: 'berth_event_delivery_attempts_total',
    help: 'Event delivery attempts by outcome (delivered, retry, dead)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly tokenExchanges = new Counter({
    name: 'berth_token_exchanges_total',
    help: 'Token exchanges by endpoint (sts_exchange, sts_refresh, sts_login, registry_token) and outcome (issued, refused, error)',
    labelNames: ['endpoint', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    this.httpDuration.countedAs(
      'berth_http_requests_total',
      'HTTP requests answered, by listener (api, registry), method, route template and status',
      this.registry,
    );
    collectDefaultMetrics({ register: this.registry });
  }

  private readonly scrapeHooks = new Set<() => void>();

  /** Runs `hook` before every scrape: what waits to be counted (finished requests) is counted first. */
  beforeScrape(hook: () => void): void {
    this.scrapeHooks.add(hook);
  }

  /** The metrics in Prometheus' text format, after the scrape hooks. */
  async render(): Promise<string> {
    for (const hook of this.scrapeHooks) hook();
    return this.registry.metrics();
  }

  /** A gauge whose value is read at each scrape (pool usage, queue depths). A failing read reports no samples. */
  gauge(name: string, help: string, labelNames: readonly string[], read: GaugeReader): void {
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        let samples: Awaited<ReturnType<GaugeReader>> = [];
        try {
          samples = await read();
        } catch {
          // the database is down: /readyz says so; a scrape still answers
        }
        for (const s of samples) this.set(s.labels, s.value);
      },
    });
  }
}

let current: Metrics | undefined;

/** The process's metrics, made on the first call (`berth serve` with metrics on). */
export function enableMetrics(): Metrics {
  current ??= new Metrics();
  return current;
}

/** The process's metrics, or undefined when they are off. */
export function metrics(): Metrics | undefined {
  return current;
}

/** Seconds since `startedMs` (a performance.now() value). */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
