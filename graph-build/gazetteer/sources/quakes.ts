// USGS earthquakes (the onshore-Africa extract of the M≥5.5 catalogue).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { Feat } from '../model.ts';
import { safeId } from '../model.ts';
import { parseCsv } from '../csv.ts';

/** "MM/DD/YYYY" + "HH:MM:SS" → epoch ms (UTC); some rows carry a full ISO timestamp instead. */
function when(date: string, time: string): number {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(date);
  if (m) return Date.parse(`${m[3]}-${m[1]}-${m[2]}T${time || '00:00:00'}Z`);
  return Date.parse(date);
}

export function readQuakes(dir: string, file: string, adm0: Map<string, string>): Feat[] {
  let buf = readFileSync(join(dir, file));
  if (file.endsWith('.gz')) buf = gunzipSync(buf);
  const out: Feat[] = [];
  for (const r of parseCsv(buf.toString('utf8'))) {
    const lat = Number(r.Latitude), lng = Number(r.Longitude), mag = Number(r.Magnitude);
    const t = when(r.Date, r.Time);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !Number.isFinite(mag) || !Number.isFinite(t)) continue;
    out.push({
      code: `usgs.${safeId(r.ID)}`, layer: 'quake', cat: 'earthquake', name: null, alt: [], lat, lng,
      country: adm0.get(r.africa_adm0_a3) ?? null, admin1: null, pop: 0, importance: 0.1, sources: ['usgs'],
      extra: { magnitude: mag, magnitude_type: r['Magnitude Type'] || null, depth_km: Number(r.Depth), time: new Date(t).toISOString(), usgs_id: r.ID, event_type: r.Type },
    });
  }
  return out;
}
