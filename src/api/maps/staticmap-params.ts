// The marker and path syntax of static maps (the alt platform's): `markers=STYLES|LAT,LNG|…`
// with styles color:, label:, size:; `path=STYLES|LAT,LNG|…` or `path=STYLES|enc:POLYLINE` with
// color:, weight:, fillcolor:; and our addition `route` (or route:walk|cycle) in a path's
// styles, which replaces its points by the route through them. Documented in docs/maps.md.
import { HttpError } from '../../http/types.ts';
import { latlngOf } from '../../core/points.ts';
import { STATICMAP_LIMITS, type StaticMarker, type StaticPath } from '../../core/maps/staticmap.ts';
import { decodePolyline } from '../../core/maps/polyline.ts';

const NAMED: Record<string, string> = {
  black: '#000000', brown: '#8b4513', green: '#2e7d32', purple: '#7b1fa2', yellow: '#fbc02d', blue: '#1e4fd8',
  gray: '#808080', grey: '#808080', orange: '#ef6c00', red: '#e53935', white: '#ffffff',
};

const bad = (param: string, why: string) => new HttpError(400, 'invalid_parameter', `Parameter '${param}' ${why}.`);

/** 0xRRGGBB, 0xRRGGBBAA, #RRGGBB[AA] or a named colour → CSS colour. */
export function parseColour(param: string, v: string): string {
  const m = /^(?:0x|#)([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(v);
  if (m) return m[2] ? `rgba(${parseInt(m[1].slice(0, 2), 16)},${parseInt(m[1].slice(2, 4), 16)},${parseInt(m[1].slice(4, 6), 16)},${(parseInt(m[2], 16) / 255).toFixed(3)})` : `#${m[1].toLowerCase()}`;
  const n = NAMED[v.toLowerCase()];
  if (n) return n;
  throw bad(param, `has an unknown colour '${v}' (use 0xRRGGBB, 0xRRGGBBAA or one of ${Object.keys(NAMED).join(', ')})`);
}

function point(param: string, v: string): [number, number] {
  const ll = latlngOf(v);
  if (!ll) throw bad(param, `has '${v}', which is not a style (color:, label:, size:, weight:, fillcolor:) nor 'LAT,LNG' in decimal degrees`);
  return ll;
}

export function parseMarkers(values: string[]): StaticMarker[] {
  const out: StaticMarker[] = [];
  for (const v of values) {
    let color: string | undefined, label: string | undefined, size: StaticMarker['size'];
    for (const part of v.split('|').map((s) => s.trim()).filter(Boolean)) {
      const kv = /^(color|label|size|scale|icon|anchor):(.*)$/i.exec(part);
      if (kv) {
        const k = kv[1].toLowerCase(), val = kv[2].trim();
        if (k === 'color') color = parseColour('markers', val);
        else if (k === 'label') {
          if (!/^[A-Za-z0-9]$/.test(val)) throw bad('markers', 'label must be one letter or digit');
          label = val.toUpperCase();
        } else if (k === 'size') {
          if (!['tiny', 'small', 'mid'].includes(val)) throw bad('markers', 'size must be tiny, small or mid');
          size = val as StaticMarker['size'];
        } else throw bad('markers', `style '${k}' is not supported (color, label, size)`);
        continue;
      }
      const [lat, lng] = point('markers', part);
      out.push({ lat, lng, ...(color ? { color } : {}), ...(label ? { label } : {}), ...(size ? { size } : {}) });
      if (out.length > STATICMAP_LIMITS.maxMarkers) throw bad('markers', `has more than ${STATICMAP_LIMITS.maxMarkers} locations`);
    }
  }
  return out;
}

export interface ParsedPath extends StaticPath { route?: 'driving' | 'walk' | 'cycle' }

export function parsePaths(values: string[]): ParsedPath[] {
  if (values.length > STATICMAP_LIMITS.maxPaths) throw bad('path', `is given more than ${STATICMAP_LIMITS.maxPaths} times`);
  return values.map((v) => {
    const p: ParsedPath = { points: [] };
    // `enc:` takes the rest of the value: '|' is one of the polyline alphabet's characters.
    const enc = v.search(/(^|\|)\s*enc:/i);
    const head = enc < 0 ? v : v.slice(0, enc);
    const parts = head.split('|').map((s) => s.trim()).filter(Boolean);
    if (enc >= 0) parts.push(v.slice(enc).replace(/^\|?\s*/, ''));
    for (const part of parts) {
      const kv = /^(color|weight|fillcolor|geodesic|enc|route)(?::([\s\S]*))?$/i.exec(part);
      if (kv) {
        const k = kv[1].toLowerCase(), val = (kv[2] ?? '').trim();
        if (k === 'color') p.color = parseColour('path', val);
        else if (k === 'fillcolor') p.fillcolor = parseColour('path', val);
        else if (k === 'weight') {
          const w = Number(val);
          if (!Number.isFinite(w) || w < 0 || w > 50) throw bad('path', 'weight must be a number from 0 to 50');
          p.weight = w;
        } else if (k === 'enc') {
          try { p.points.push(...decodePolyline(val)); } catch (e) { throw bad('path', `has an invalid encoded polyline (${(e as Error).message})`); }
        } else if (k === 'route') {
          const mode = val === '' || val === 'driving' || val === 'car' ? 'driving' : val === 'walk' || val === 'walking' ? 'walk' : val === 'cycle' || val === 'cycling' || val === 'bicycle' ? 'cycle' : null;
          if (!mode) throw bad('path', "route must be 'route', 'route:driving', 'route:walk' or 'route:cycle'");
          p.route = mode;
        }
        continue;
      }
      p.points.push(point('path', part));
    }
    if (p.points.length > STATICMAP_LIMITS.maxPathPoints) throw bad('path', `has more than ${STATICMAP_LIMITS.maxPathPoints} points`);
    if (p.route && p.points.length < 2) throw bad('path', 'with route needs at least two points (from|…|to)');
    return p;
  });
}
