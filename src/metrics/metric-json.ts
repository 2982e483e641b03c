/**
 * One metric family as prom-client's `Registry.getMetricsAsJSON()` gives it: what a cluster worker
 * sends its primary, and what prom-client's `AggregatorRegistry.aggregate()` combines, family by
 * family, with the family's `aggregator` ('sum', 'max', 'min', 'first', 'average' or 'omit').
 * prom-client's own typings declare `type` as an enum it never holds at run time, hence this type.
 */
export interface MetricFamilyJSON {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
}
