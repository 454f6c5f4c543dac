// Histograms for the request path: an observation is one Map lookup by a key
// joined from the label values and a few additions; the values become
// prom-client's metric objects only when scraped, and prom-client's registry
// renders them with the rest. prom-client's own observe validates and hashes a
// label object on every call, which measured several µs per request once a
// request records a histogram of its own and one per database statement
// (docs/performance.md). The exposition is the same.
import type { Registry } from 'prom-client';

type Labels<L extends string> = Readonly<Record<L, string>>;

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface MetricValues {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: MetricValue[];
}

interface Series<L extends string> {
  labels: Labels<L>;
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** A histogram by label values, with fixed bucket upper bounds. */
export class KeyedHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series<L>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  observe(labels: Labels<L>, value: number): void {
    if (!Number.isFinite(value)) return;
    // The label values joined by a byte no label value holds.
    let key = '';
    for (const n of this.labelNames) key += `${labels[n]}\u0001`;
    let s = this.series.get(key);
    if (!s) {
      const own = Object.fromEntries(this.labelNames.map((n) => [n, String(labels[n])])) as Labels<L>;
      s = { labels: own, counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]) i++;
    s.counts[i]++;
    s.sum += value;
    s.count++;
  }

  /**
   * A counter of this histogram's observations by the same labels (what
   * its _count says), for a total that would otherwise be recorded twice.
   */
  countedAs(name: string, help: string, registry: Registry): void {
    const values = (): MetricValues => ({
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      values: [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.count })),
    });
    registry.registerMetric({ name, help, type: 'counter', aggregator: 'sum', get: async () => values(), reset: () => undefined } as never);
  }

  async get(): Promise<MetricValues> {
    const values: MetricValue[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i];
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}
