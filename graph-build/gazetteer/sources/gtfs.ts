// GTFS stops with the routes that serve them (stop_times → trips → routes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Feat } from '../model.ts';
import { safeId } from '../model.ts';
import { zipEntries, zipText } from '../zip.ts';
import { parseCsv } from '../csv.ts';

export function readGtfs(dir: string, feed: { city: string; file: string }): { feats: Feat[]; routes: number } {
  const path = join(dir, feed.file);
  const buf = readFileSync(path);
  const entries = zipEntries(buf, feed.file);
  const table = (n: string, required = true) => {
    const t = zipText(buf, entries, n, feed.file);
    if (t === null && required) throw new Error(`${feed.file}: missing ${n}`);
    return t === null ? [] : parseCsv(t);
  };
  const slug = feed.city.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const source = `gtfs_${slug}`;
  const routes = new Map<string, { id: string; short_name: string | null; long_name: string | null; type: number }>();
  for (const r of table('routes.txt')) {
    routes.set(r.route_id, { id: r.route_id, short_name: r.route_short_name || null, long_name: r.route_long_name || null, type: Number(r.route_type) });
  }
  const tripRoute = new Map<string, string>();
  for (const t of table('trips.txt')) tripRoute.set(t.trip_id, t.route_id);
  const stopRoutes = new Map<string, Set<string>>();
  for (const st of table('stop_times.txt')) {
    const rid = tripRoute.get(st.trip_id);
    if (!rid) continue;
    let s = stopRoutes.get(st.stop_id);
    if (!s) stopRoutes.set(st.stop_id, (s = new Set()));
    s.add(rid);
  }
  const feats: Feat[] = [];
  for (const s of table('stops.txt')) {
    // Stations (location_type 1) and entrances are not boarding points.
    if (s.location_type && s.location_type !== '0') continue;
    const lat = Number(s.stop_lat), lng = Number(s.stop_lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const rs = [...(stopRoutes.get(s.stop_id) ?? [])].map((id) => routes.get(id)!).filter(Boolean)
      .sort((a, b) => (a.short_name ?? a.long_name ?? '').localeCompare(b.short_name ?? b.long_name ?? '', 'en', { numeric: true }));
    feats.push({
      code: `gtfs.${slug}.${safeId(s.stop_id)}`, layer: 'transit', cat: 'bus_stop', name: s.stop_name?.trim() || null, alt: [],
      lat, lng, country: null, admin1: null, pop: 0, importance: 0.15 + Math.min(0.1, rs.length * 0.01), sources: [source],
      extra: { feed: feed.city, stop_id: s.stop_id, stop_code: s.stop_code || undefined, routes: rs },
    });
  }
  return { feats, routes: routes.size };
}
