// Small statistics helpers for benchmarks.
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export const round = (x: number, d = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);

/** Run `fn` once per item, timing each call in microseconds; returns sorted timings. */
export function timeEach<T>(items: T[], fn: (x: T) => void): Float64Array {
  const t = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const t0 = process.hrtime.bigint();
    fn(items[i]);
    t[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  return t.sort();
}
