// A Prometheus histogram kept as plain counters: observing is a bucket search and two additions;
// the cumulative form Prometheus wants is computed only when scraped.

/** Seconds: from 0.1 ms (a click) to 5 s (a busy import). */
export const DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

export type HistogramCounts = { buckets: number[]; sum: number; count: number };

export function newHistogram(bounds: readonly number[] = DURATION_BUCKETS): HistogramCounts {
  return { buckets: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 };
}

export function observe(h: HistogramCounts, value: number, bounds: readonly number[] = DURATION_BUCKETS): void {
  let i = 0;
  while (i < bounds.length && value > bounds[i]!) i++;
  h.buckets[i]!++;
  h.sum += value;
  h.count++;
}

/** The exposition lines of one histogram (its `# TYPE` line is the caller's). */
export function histogramLines(name: string, labels: string, h: HistogramCounts, bounds: readonly number[] = DURATION_BUCKETS): string[] {
  const sep = labels === "" ? "" : `${labels},`;
  const lines: string[] = [];
  let cumulative = 0;
  bounds.forEach((le, i) => {
    cumulative += h.buckets[i]!;
    lines.push(`${name}_bucket{${sep}le="${le}"} ${cumulative}`);
  });
  lines.push(`${name}_bucket{${sep}le="+Inf"} ${h.count}`);
  lines.push(`${name}_sum${labels === "" ? "" : `{${labels}}`} ${h.sum}`);
  lines.push(`${name}_count${labels === "" ? "" : `{${labels}}`} ${h.count}`);
  return lines;
}
