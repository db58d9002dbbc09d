// Draws a static map: the tiles under the view (decoded once, kept in a small cache), then the
// same layers the styles draw, in the same order and colours (src/core/maps/style.ts), then the
// caller's paths and markers, then the attribution in the bottom-right corner.
import type { PmArchive } from '../../src/core/maps/pmtiles.ts';
import { decodeMvt, type MvtFeature, type MvtLayer } from '../../src/core/maps/mvt.ts';
import { PALETTES, ROAD_LINES, RIVER_WIDTH, BORDER_WIDTH, ADMIN1_WIDTH, ATTRIBUTION_TEXT, widthAt, type Palette } from '../../src/core/maps/style.ts';
import { BASE_MAXZOOM, DETAIL_MINZOOM, LAYER, MAXZOOM } from '../../src/core/maps/schema.ts';
import { drawIcon, type IconName } from '../../src/core/maps/icons.ts';
import { project, type StaticMapSpec } from '../../src/core/maps/staticmap.ts';
import { FONT_DIR, FONT_FILES } from '../../src/core/maps/fonts.ts';
import { encodePng } from '../../src/core/maps/png.ts';

type Canvas = typeof import('@napi-rs/canvas');
type Ctx = import('@napi-rs/canvas').SKRSContext2D;
type Layers = Map<string, MvtLayer>;
interface PlacedTile { layers: Layers; px: number; py: number; size: number }

const CACHE_TILES = 512;
const FAMILY = (w: 'regular' | 'bold') => FONT_FILES[w].map((f) => `"${f.family}"`).join(', ');

export class Renderer {
  private cache = new Map<string, Layers | null>();

  constructor(private archive: PmArchive, private canvas: Canvas) {
    for (const list of Object.values(FONT_FILES)) for (const f of list) {
      if (!canvas.GlobalFonts.has(f.family)) canvas.GlobalFonts.registerFromPath(`${FONT_DIR}/${f.file}`, f.family);
    }
  }

  private tile(z: number, x: number, y: number): Layers | null {
    const k = `${z}/${x}/${y}`;
    const hit = this.cache.get(k);
    if (hit !== undefined) {
      this.cache.delete(k); this.cache.set(k, hit); // most recently used last
      return hit;
    }
    const raw = this.archive.tileRaw(z, x, y);
    const layers = raw ? new Map(decodeMvt(raw).map((l) => [l.name, l])) : null;
    if (this.cache.size >= CACHE_TILES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(k, layers);
    return layers;
  }

  /** Tiles of zoom tz covering the view whose top-left world pixel is (ox, oy) at zoom z. */
  private tilesFor(tz: number, z: number, ox: number, oy: number, w: number, h: number): PlacedTile[] {
    const size = 256 * 2 ** (z - tz), n = 2 ** tz;
    const out: PlacedTile[] = [];
    for (let ty = Math.floor(oy / size); ty <= Math.floor((oy + h) / size); ty++) {
      if (ty < 0 || ty >= n) continue;
      for (let tx = Math.floor(ox / size); tx <= Math.floor((ox + w) / size); tx++) {
        const layers = this.tile(tz, ((tx % n) + n) % n, ty);
        if (layers) out.push({ layers, px: tx * size - ox, py: ty * size - oy, size });
      }
    }
    return out;
  }

  png(spec: StaticMapSpec): Uint8Array {
    const { width: w, height: h, scale, zoom: z } = spec;
    const cv = this.canvas.createCanvas(Math.round(w * scale), Math.round(h * scale));
    const ctx = cv.getContext('2d');
    ctx.scale(scale, scale);
    const p = PALETTES[spec.theme];
    const [cx, cy] = project(spec.center[0], spec.center[1], z);
    const ox = cx - w / 2, oy = cy - h / 2;
    const base = this.tilesFor(Math.min(Math.floor(z), BASE_MAXZOOM), z, ox, oy, w, h);
    const detail = z >= DETAIL_MINZOOM ? this.tilesFor(Math.min(Math.floor(z), MAXZOOM), z, ox, oy, w, h) : [];

    ctx.fillStyle = p.water;
    ctx.fillRect(0, 0, w, h);
    // Each tile is drawn clipped to its own square: features reach into the neighbours' buffer,
    // and a polygon's outline along the cut would otherwise show as a line.
    const each = (tiles: PlacedTile[], layer: string, pred: (f: MvtFeature) => boolean, draw: (t: PlacedTile, f: MvtFeature, extent: number) => void, after?: () => void) => {
      for (const t of tiles) {
        const l = t.layers.get(layer);
        if (!l) continue;
        ctx.save();
        ctx.beginPath(); ctx.rect(t.px, t.py, t.size, t.size); ctx.clip();
        ctx.beginPath();
        for (const f of l.features) if (pred(f)) draw(t, f, l.extent);
        after?.();
        ctx.restore();
      }
    };
    const trace = (t: PlacedTile, f: MvtFeature, extent: number) => {
      const k = t.size / extent;
      for (const ring of f.geometry) {
        ctx.moveTo(t.px + ring[0] * k, t.py + ring[1] * k);
        for (let i = 2; i < ring.length; i += 2) ctx.lineTo(t.px + ring[i] * k, t.py + ring[i + 1] * k);
      }
    };
    const fill = (tiles: PlacedTile[], layer: string, pred: (f: MvtFeature) => boolean, colour: string) => {
      each(tiles, layer, (f) => f.type === 3 && pred(f), (t, f, e) => { ctx.fillStyle = colour; ctx.beginPath(); trace(t, f, e); ctx.fill(); });
    };
    const stroke = (tiles: PlacedTile[], layer: string, pred: (f: MvtFeature) => boolean, colour: string, width: number, dash: number[] = [], cap: 'round' | 'butt' = 'round') => {
      each(tiles, layer, (f) => f.type === 2 || f.type === 3 ? pred(f) : false, trace, () => {
        ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.lineCap = cap; ctx.lineJoin = 'round';
        ctx.setLineDash(dash.map((d) => d * width));
        ctx.stroke();
      });
    };

    fill(base, LAYER.boundaries, (f) => f.props.admin_level === 2, p.land);
    fill(base, LAYER.water, (f) => f.props.class === 'lake', p.lake);
    stroke(base, LAYER.water, (f) => f.props.class === 'river' && f.type === 2, p.river, widthAt(RIVER_WIDTH, z));
    if (z >= 3) stroke(base, LAYER.boundaries, (f) => f.props.admin_level === 4, p.admin1, widthAt(ADMIN1_WIDTH, z), [3, 2], 'butt');
    stroke(base, LAYER.boundaries, (f) => f.props.admin_level === 2, p.border, widthAt(BORDER_WIDTH, z));

    const roads = z >= DETAIL_MINZOOM ? detail : base;
    const lines = ROAD_LINES.filter((r) => r.minzoom <= z);
    for (const r of lines) if (r.casing) stroke(roads, LAYER.roads, (f) => r.classes.includes(String(f.props.class)), p.casing, widthAt(r.width, z) * 1.35);
    for (const r of lines) stroke(roads, LAYER.roads, (f) => r.classes.includes(String(f.props.class)), p[r.colour], widthAt(r.width, z), r.dash, r.dash ? 'butt' : 'round');

    this.pois(ctx, base, z, w, h);
    this.places(ctx, base, p, w, h);
    this.overlays(ctx, spec, ox, oy);
    this.attribution(ctx, spec, w, h);
    return encodePng(ctx.getImageData(0, 0, cv.width, cv.height).data, cv.width, cv.height, 1);
  }

  private pois(ctx: Ctx, tiles: PlacedTile[], z: number, w: number, h: number) {
    const shown = (f: MvtFeature) => {
      const g = f.props.group, c = f.props.class;
      return (g === 'airport' && z >= 6) || (g === 'port' && z >= 8) || (c === 'hospital' && z >= 12) || (g === 'health' && z >= 14) || (g === 'transit' && z >= 15);
    };
    const icon = (c: string): IconName => (c === 'hospital' || c === 'pharmacy' || c === 'bus_stop' || c === 'airport' || c === 'port' ? c : 'health');
    for (const t of tiles) {
      const l = t.layers.get(LAYER.pois);
      if (!l) continue;
      const k = t.size / l.extent;
      for (const f of l.features) {
        if (!shown(f)) continue;
        const x = t.px + f.geometry[0][0] * k, y = t.py + f.geometry[0][1] * k;
        if (x < -10 || y < -10 || x > w + 10 || y > h + 10) continue;
        ctx.save(); ctx.translate(x - 8, y - 8); drawIcon(ctx as any, icon(String(f.props.class)), 16); ctx.restore();
      }
    }
  }

  private places(ctx: Ctx, tiles: PlacedTile[], p: Palette, w: number, h: number) {
    const cands: { name: string; x: number; y: number; rank: number; cls: string; capital: boolean }[] = [];
    for (const t of tiles) {
      const l = t.layers.get(LAYER.places);
      if (!l) continue;
      const k = t.size / l.extent;
      for (const f of l.features) {
        const x = t.px + f.geometry[0][0] * k, y = t.py + f.geometry[0][1] * k;
        if (x < 0 || y < 0 || x > w || y > h || !f.props.name) continue;
        cands.push({ name: String(f.props.name), x, y, rank: Number(f.props.rank) || 1e9, cls: String(f.props.class), capital: f.props.capital === 1 });
      }
    }
    cands.sort((a, b) => a.rank - b.rank);
    const boxes: [number, number, number, number][] = [];
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle'; ctx.lineJoin = 'round';
    for (const c of cands.slice(0, 200)) {
      const bold = c.cls === 'city' || c.capital;
      const size = c.cls === 'city' ? 14 : c.cls === 'town' ? 12 : 11;
      ctx.font = `${bold ? 'bold ' : ''}${size}px ${FAMILY(bold ? 'bold' : 'regular')}`;
      const tw = ctx.measureText(c.name).width;
      const b: [number, number, number, number] = [c.x - tw / 2 - 4, c.y - size / 2 - 4, c.x + tw / 2 + 4, c.y + size / 2 + 4];
      if (b[0] < 0 || b[2] > w || b[1] < 0 || b[3] > h) continue;
      if (boxes.some((o) => b[0] < o[2] && b[2] > o[0] && b[1] < o[3] && b[3] > o[1])) continue;
      boxes.push(b);
      ctx.strokeStyle = p.halo; ctx.lineWidth = 3; ctx.strokeText(c.name, c.x, c.y);
      ctx.fillStyle = p.label; ctx.fillText(c.name, c.x, c.y);
    }
  }

  private overlays(ctx: Ctx, spec: StaticMapSpec, ox: number, oy: number) {
    for (const path of spec.paths) {
      if (!path.points.length) continue;
      ctx.beginPath();
      path.points.forEach(([lat, lng], i) => {
        const [x, y] = project(lat, lng, spec.zoom);
        if (i === 0) ctx.moveTo(x - ox, y - oy); else ctx.lineTo(x - ox, y - oy);
      });
      if (path.fillcolor) { ctx.fillStyle = path.fillcolor; ctx.fill(); }
      const weight = path.weight ?? 5;
      if (weight > 0) {
        ctx.strokeStyle = path.color ?? 'rgba(0,0,255,0.7)'; ctx.lineWidth = weight; ctx.lineCap = 'round'; ctx.lineJoin = 'round';
        ctx.stroke();
      }
    }
    for (const m of spec.markers) {
      const [x, y] = project(m.lat, m.lng, spec.zoom);
      const s = m.size === 'tiny' ? 12 : m.size === 'small' ? 20 : 30;
      ctx.save(); ctx.translate(x - ox - s / 2, y - oy - s); drawIcon(ctx as any, 'marker', s, m.color); ctx.restore();
      if (m.label && s >= 20) {
        ctx.font = `bold ${Math.round(s * 0.32)}px ${FAMILY('bold')}`;
        ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
        ctx.fillStyle = '#000000';
        ctx.fillText(m.label, x - ox, y - oy - s * 0.62);
      }
    }
  }

  private attribution(ctx: Ctx, spec: StaticMapSpec, w: number, h: number) {
    ctx.font = `10px ${FAMILY('regular')}`;
    const tw = ctx.measureText(ATTRIBUTION_TEXT).width;
    const bw = Math.min(w, tw + 8), bh = 14;
    ctx.fillStyle = spec.theme === 'dark' ? 'rgba(0,0,0,0.65)' : 'rgba(255,255,255,0.75)';
    ctx.fillRect(w - bw, h - bh, bw, bh);
    ctx.fillStyle = spec.theme === 'dark' ? '#dddddd' : '#333333';
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    ctx.fillText(ATTRIBUTION_TEXT, w - 4, h - bh / 2, w - 8);
  }
}
