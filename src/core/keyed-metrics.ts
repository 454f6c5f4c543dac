// Histograms for the request path: an observation is one Map lookup per
// label value (no key is built: label values are mostly constant strings whose
// hashes V8 keeps) and a few additions; the values become
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
  private readonly series: Series<L>[] = [];
  /** Label values, one Map level per label name in order; the last level holds the series. */
  private readonly index = new Map<string, unknown>();

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
    this.add(this.seriesOf(labels), value);
  }

  /** An observer of one label set, for a caller that records the same labels every time (its series appears at its first value). */
  bound(labels: Labels<L>): (value: number) => void {
    let s: Series<L> | undefined;
    return (value) => {
      if (!Number.isFinite(value)) return;
      s ??= this.seriesOf(labels);
      this.add(s, value);
    };
  }

  private seriesOf(labels: Labels<L>): Series<L> {
    let level = this.index;
    const last = this.labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      const v = labels[this.labelNames[i]];
      let next = level.get(v) as Map<string, unknown> | undefined;
      if (!next) {
        next = new Map();
        level.set(v, next);
      }
      level = next;
    }
    const v = labels[this.labelNames[last]];
    let s = level.get(v) as Series<L> | undefined;
    if (!s) {
      const own = Object.fromEntries(this.labelNames.map((n) => [n, String(labels[n])])) as Labels<L>;
      s = { labels: own, counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      level.set(v, s);
      this.series.push(s);
    }
    return s;
  }

  private add(s: Series<L>, value: number): void {
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
      values: this.series.map((s) => ({ labels: { ...s.labels }, value: s.count })),
    });
    registry.registerMetric({ name, help, type: 'counter', aggregator: 'sum', get: async () => values(), reset: () => undefined } as never);
  }

  async get(): Promise<MetricValues> {
    const values: MetricValue[] = [];
    for (const s of this.series) {
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
    // Bound observers hold their series: zero them rather than forget them.
    for (const s of this.series) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}
