// Synthetic GPS traces from real routes, for the map-matching test and benchmark: route between
// two points, walk the route's geometry at its average speed, take a fix every 5–30 s, add Gaussian
// noise of σ metres and, with probability `outliers`, move a fix 150–400 m away.
import { haversine, M_PER_DEG } from '../../src/core/geometry.ts';
import { rng } from './rand.ts';

export interface Trace { points: { lat: number; lng: number; ts: number }[]; truth: [number, number][]; length_m: number }

export function traceFromRoute(coords: [number, number][], durationS: number, distanceM: number, sigma: number, outliers: number, seed: number): Trace {
  const r = rng(seed);
  const gauss = () => { let u = 0, v = 0; while (u === 0) u = r(); while (v === 0) v = r(); return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v); };
  const speed = distanceM / Math.max(1, durationS); // m/s
  // cumulative lengths along [lng, lat] coords
  const cum = [0];
  for (let i = 1; i < coords.length; i++) cum.push(cum[i - 1] + haversine(coords[i - 1][1], coords[i - 1][0], coords[i][1], coords[i][0]));
  const total = cum[cum.length - 1];
  const at = (d: number): [number, number] => {
    let i = 1;
    while (i < cum.length - 1 && cum[i] < d) i++;
    const f = cum[i] > cum[i - 1] ? (d - cum[i - 1]) / (cum[i] - cum[i - 1]) : 0;
    const [lo1, la1] = coords[i - 1], [lo2, la2] = coords[i];
    return [la1 + f * (la2 - la1), lo1 + f * (lo2 - lo1)];
  };
  const points: Trace['points'] = [];
  let t = 0;
  for (let d = 0; ; ) {
    const [lat, lng] = at(Math.min(d, total));
    const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG;
    let dy = gauss() * sigma, dx = gauss() * sigma;
    if (r() < outliers) { const a = r() * 2 * Math.PI, m = 150 + r() * 250; dx = Math.cos(a) * m; dy = Math.sin(a) * m; }
    points.push({ lat: lat + dy / M_PER_DEG, lng: lng + dx / kx, ts: 1_700_000_000 + Math.round(t) });
    if (d >= total) break;
    const step = 5 + r() * 25;
    t += step; d += step * speed;
  }
  return { points, truth: coords, length_m: total };
}

/** Share of the true route's length (sampled every 5 m) within `tol` metres of the matched lines. */
export function recovered(truth: [number, number][], matched: [number, number][][], tol = 15): number {
  let inside = 0, all = 0;
  const near = (lat: number, lng: number) => {
    const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG, ky = M_PER_DEG;
    for (const line of matched) for (let i = 1; i < line.length; i++) {
      const ax = (line[i - 1][0] - lng) * kx, ay = (line[i - 1][1] - lat) * ky, bx = (line[i][0] - lng) * kx, by = (line[i][1] - lat) * ky;
      const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
      let t = l2 > 0 ? -(ax * dx + ay * dy) / l2 : 0;
      t = Math.max(0, Math.min(1, t));
      const px = ax + t * dx, py = ay + t * dy;
      if (px * px + py * py <= tol * tol) return true;
    }
    return false;
  };
  for (let i = 1; i < truth.length; i++) {
    const [lo1, la1] = truth[i - 1], [lo2, la2] = truth[i];
    const L = haversine(la1, lo1, la2, lo2), k = Math.max(1, Math.ceil(L / 5));
    for (let j = 0; j < k; j++) {
      const f = (j + 0.5) / k;
      all += L / k;
      if (near(la1 + f * (la2 - la1), lo1 + f * (lo2 - lo1))) inside += L / k;
    }
  }
  return all > 0 ? inside / all : 1;
}
