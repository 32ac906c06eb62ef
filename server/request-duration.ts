/**
 * The request-duration histogram, kept by hand and handed to prom-client's registry for the text
 * exposition. prom-client's own Histogram checks, sorts and joins the label values into a key on
 * every observation (about 3 µs); a cached page is answered in a few microseconds, so that was a
 * large part of its cost. Here an observation is three Map look-ups and two additions.
 */
import type { Registry } from 'prom-client';

type Labels = { method: string; route: string; status: string };

interface Series {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** What prom-client's registry reads from a metric (its `MetricObjectWithValues`). */
interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName: string;
}

export class RequestDurationHistogram {
  readonly name: string;
  readonly help: string;
  private readonly bounds: readonly number[];
  /** route → method → status → series: no key string built per observation. */
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(options: { name: string; help: string; buckets: readonly number[]; registers: Registry[] }) {
    this.name = options.name;
    this.help = options.help;
    this.bounds = [...options.buckets].sort((a, b) => a - b);
    // The registry formats any object with name, help and get(); its type names only its own classes.
    for (const registry of options.registers)
      registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map<string, Map<number, Series>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Series>()));
    let one = byStatus.get(status);
    if (!one) {
      one = {
        labels: { method, route, status: String(status) },
        counts: new Float64Array(this.bounds.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, one);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket += 1;
    one.counts[bucket] = (one.counts[bucket] as number) + 1;
    one.sum += seconds;
    one.count += 1;
  }

  /** The exposition: cumulative `_bucket` lines with `le`, then `_sum` and `_count`, per series. */
  get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: MetricValue[] }> {
    const values: MetricValue[] = [];
    for (const byMethod of this.series.values()) {
      for (const byStatus of byMethod.values()) {
        for (const one of byStatus.values()) {
          let cumulative = 0;
          this.bounds.forEach((bound, index) => {
            cumulative += one.counts[index] as number;
            values.push({ value: cumulative, labels: { le: bound, ...one.labels }, metricName: `${this.name}_bucket` });
          });
          values.push({ value: one.count, labels: { le: '+Inf', ...one.labels }, metricName: `${this.name}_bucket` });
          values.push({ value: one.sum, labels: one.labels, metricName: `${this.name}_sum` });
          values.push({ value: one.count, labels: one.labels, metricName: `${this.name}_count` });
        }
      }
    }
    return Promise.resolve({ name: this.name, help: this.help, type: 'histogram', aggregator: 'sum', values });
  }

  reset(): void {
    this.series.clear();
  }
}
