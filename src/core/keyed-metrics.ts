// Counters and histograms for the request path: a recording is one Map lookup
// by a key joined from the label values and a few additions; the values
// become prom-client's metric objects only when scraped, and prom-client's
// registry renders them with the rest. prom-client's own inc/observe validate
// and hash a label object on every call, which measured several µs per
// request once a request records a counter, a histogram and a histogram per
// database statement (docs/performance.md). The exposition is the same.
import type { Registry } from 'prom-client';

type Labels<L extends string> = Readonly<Record<L, string>>;

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** The label key: the values in the label names' order, joined by a byte no label value holds. */
function keyOf<L extends string>(names: readonly L[], labels: Labels<L>): string {
  let key = '';
  for (const n of names) key += `${labels[n]}\u0001`;
  return key;
}

abstract class KeyedMetric<L extends string, S> {
  readonly aggregator = 'sum';
  protected readonly series = new Map<string, { labels: Labels<L>; value: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  protected seriesOf(labels: Labels<L>, fresh: () => S): S {
    const key = keyOf(this.labelNames, labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels: Object.fromEntries(this.labelNames.map((n) => [n, String(labels[n])])) as Labels<L>, value: fresh() };
      this.series.set(key, s);
    }
    return s.value;
  }

  reset(): void {
    this.series.clear();
  }
}

/** A counter by label values (`inc(n)` when it has no labels). */
export class KeyedCounter<L extends string = never> extends KeyedMetric<L, { n: number }> {
  readonly type = 'counter';

  inc(labelsOrValue?: Labels<L> | number, value = 1): void {
    if (typeof labelsOrValue === 'number' || labelsOrValue === undefined) {
      this.seriesOf({} as Labels<L>, () => ({ n: 0 })).n += labelsOrValue ?? 1;
      return;
    }
    this.seriesOf(labelsOrValue, () => ({ n: 0 })).n += value;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    const values: MetricValue[] = [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.value.n }));
    if (values.length === 0 && this.labelNames.length === 0) values.push({ labels: {}, value: 0 });
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

interface HistogramSeries {
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** A histogram by label values, with fixed bucket upper bounds. */
export class KeyedHistogram<L extends string> extends KeyedMetric<L, HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly L[],
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    super(name, help, labelNames, registry);
  }

  observe(labels: Labels<L>, value: number): void {
    if (!Number.isFinite(value)) return;
    const s = this.seriesOf(labels, () => ({ counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 }));
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
    const series = this.series;
    registry.registerMetric({
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        name,
        help,
        type: 'counter',
        aggregator: 'sum',
        values: [...series.values()].map((s) => ({ labels: { ...s.labels }, value: s.value.count })),
      }),
      reset: () => undefined,
    } as never);
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    const values: MetricValue[] = [];
    for (const { labels, value: s } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i];
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
