// Health facilities: healthsites.io (OpenStreetMap) and the WHO sub-Saharan list,
// deduplicated: a WHO row with an OSM facility of a similar name within 100 m is merged
// into that feature (both sources kept, the WHO name added as an alternate name).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import type { Feat } from '../model.ts';
import { stableHash } from '../model.ts';
import { parseCsv } from '../csv.ts';
import { tokens, editDistance } from '../../../src/core/text/normalize.ts';
import type { Category } from '../../../src/core/categories.ts';

const OSM_CAT: Record<string, Category> = {
  pharmacy: 'pharmacy', hospital: 'hospital', clinic: 'clinic', doctors: 'doctors', doctor: 'doctors', dentist: 'dentist',
  centre: 'health_centre', health_post: 'health_post', 'health outpost': 'health_post', healthcare: 'health_other',
  laboratory: 'health_other', medical_laboratory: 'health_other', alternative: 'health_other', traditional: 'health_other',
  physiotherapist: 'health_other', yes: 'health_other',
};
// Non-health rows that slipped into the healthsites export (restaurant, office, veterinary…) are dropped.
const WHO_CAT: Record<string, Category> = {
  'Health Centre': 'health_centre', 'Health Clinic': 'clinic', 'Health Post': 'health_post', 'Dispensary': 'dispensary',
  'Hospital': 'hospital', 'Community Health Unit': 'health_post', 'Health Hut': 'health_post', 'Medical Center': 'clinic',
  'Health Station': 'health_post', 'Polyclinic': 'clinic', 'Maternity': 'clinic',
};
const IMPORTANCE: Partial<Record<Category, number>> = { hospital: 0.4, clinic: 0.3, health_centre: 0.3, pharmacy: 0.25 };

// Words every facility name shares: ignored when deciding whether two names are the same place.
const GENERIC = new Set(['hospital', 'health', 'centre', 'center', 'clinic', 'post', 'dispensary', 'medical', 'de', 'du', 'la', 'le', 'of', 'the',
  'sante', 'saude', 'centro', 'posto', 'poste', 'hc', 'csps', 'cs', 'ps', 'chp', 'phc', 'ii', 'iii', 'iv', 'general', 'district']);

function core(name: string): string[] {
  return tokens(name).filter((t) => !GENERIC.has(t));
}

/** "Same name-ish": equal cores, one core containing the other, or a small edit distance. */
export function sameFacility(a: string, b: string): boolean {
  const ca = core(a), cb = core(b);
  if (!ca.length || !cb.length) return tokens(a).join(' ') === tokens(b).join(' ');
  const sa = ca.join(' '), sb = cb.join(' ');
  if (sa === sb || sa.includes(sb) || sb.includes(sa)) return true;
  const inter = ca.filter((t) => cb.includes(t)).length;
  if (inter / Math.min(ca.length, cb.length) >= 0.5) return true;
  return editDistance(sa, sb, 2) <= 2;
}

export function readHealth(dir: string, src: { healthsites: string; who_health: string }, iso3: Map<string, string>): { feats: Feat[]; merged: number; whoRows: number; osmRows: number } {
  const feats: Feat[] = [];
  const hs = parseCsv(gunzipSync(readFileSync(join(dir, src.healthsites))).toString('utf8'));
  for (const r of hs) {
    const lat = Number(r.lat), lng = Number(r.lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || (lat === 0 && lng === 0)) continue;
    const key = (r.amenity || r.healthcare || '').replace(/"/g, '').trim().toLowerCase();
    const cat = OSM_CAT[key] ?? (key === '' ? 'health_other' : null);
    if (!cat) continue;
    const t = r.osm_type === 'way' ? 'w' : r.osm_type === 'relation' ? 'r' : 'n';
    const name = r.name.trim() || null;
    feats.push({
      code: `osm.${t}${r.osm_id}`, layer: 'health', cat, name, alt: [], lat, lng, country: iso3.get(r.iso3c) ?? null, admin1: null, pop: 0,
      importance: (IMPORTANCE[cat] ?? 0.2) - (name ? 0 : 0.05), sources: ['healthsites'],
      extra: Object.fromEntries(Object.entries({ osm_type: r.osm_type, operator: r.operator, operator_type: r.operator_type, opening_hours: r.opening_hours,
        beds: r.beds, emergency: r.emergency, addr_full: r.addr_full }).filter(([, v]) => v && v !== '')),
    });
  }
  const osmRows = feats.length;
  // Dedupe within healthsites first: the same OSM id appears once, keep the first.
  const seen = new Set<string>();
  const osm = feats.filter((f) => (seen.has(f.code) ? false : (seen.add(f.code), true)));
  const kd = new KDBush(osm.length);
  for (const f of osm) kd.add(f.lng, f.lat);
  kd.finish();

  const who = parseCsv(gunzipSync(readFileSync(join(dir, src.who_health))).toString('utf8'));
  const out = [...osm];
  const whoSeen = new Set<string>();
  let merged = 0;
  for (const r of who) {
    const lat = Number(r.Lat), lng = Number(r.Long);
    const name = r.Facility_name.trim();
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !name) continue;
    const code = `who.${stableHash(r.Country, r.Admin1, name, r.Facility_type, r.Lat, r.Long)}`;
    if (whoSeen.has(code)) continue; // exact duplicate rows
    whoSeen.add(code);
    const cat = WHO_CAT[r.facility_type_9] ?? 'health_other';
    const near = around(kd, lng, lat, 8, 0.1);
    const match = near.map((i) => osm[i]).find((f) => f.name && sameFacility(f.name, name));
    if (match) {
      merged++;
      if (!match.sources.includes('who')) match.sources.push('who');
      if (tokens(match.name!).join(' ') !== tokens(name).join(' ') && !match.alt.includes(name)) match.alt.push(name);
      match.extra = { ...match.extra, who_type: r.Facility_type, who_ownership: r.Ownership };
      if (!match.admin1 && r.Admin1) match.admin1 = r.Admin1;
      continue;
    }
    out.push({
      code, layer: 'health', cat, name, alt: [], lat, lng, country: iso3.get(r.iso3c) ?? null, admin1: r.Admin1 || null, pop: 0,
      importance: IMPORTANCE[cat] ?? 0.2, sources: ['who'],
      extra: { facility_type: r.Facility_type, ownership: r.Ownership, location_source: r.LL_source, tier: r.Tier_name || undefined },
    });
  }
  return { feats: out, merged, whoRows: who.length, osmRows };
}
