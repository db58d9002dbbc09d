// Contours of values given at scattered points: marching triangles over their Delaunay
// triangulation. The area at or below a threshold is the union, over every point at or below it,
// of the part of each triangle around that point cut off by the edges' crossing points, so every
// point at or below the threshold lies inside the polygon and every point above it outside, however
// close the two are: a grid can only tell points apart a cell or more away.
import Delaunator from 'delaunator';

/** A point's value is Infinity-safe; the crossing on an edge is placed by linear interpolation, kept this far from either end. */
const END = 0.05;
/** Distance (in the units of xy) from the line through its neighbours under which a ring point is dropped. */
const COLLINEAR = 1e-3;

/** x0, y0, x1, y1, …, closed (the last point repeats the first). */
export type Ring = number[];

/**
 * Per threshold, the polygons (outer ring then its holes, as in a GeoJSON MultiPolygon) of the
 * area where value ≤ threshold. xy holds x0, y0, x1, y1, …; no two points may coincide (Delaunator
 * drops duplicates). The convex hull's points must lie above every threshold (a frame of dear
 * points), so every ring closes. Outer rings run counter-clockwise (x right, y up), holes clockwise.
 */
export function triContours(xy: Float64Array, value: Float64Array, thresholds: number[]): Ring[][][] {
  const d = new Delaunator(xy);
  const tri = d.triangles, half = d.halfedges;
  const seen = new Uint8Array(tri.length);
  const next = (e: number) => (e % 3 === 2 ? e - 2 : e + 1);
  const prev = (e: number) => (e % 3 === 0 ? e + 2 : e - 1);
  return thresholds.map((T) => {
    seen.fill(0);
    const rings: Ring[] = [];
    const cross = (e: number, ring: Ring) => {
      const a = tri[e], b = tri[next(e)];
      const va = value[a], vb = value[b];
      let t = vb === Infinity ? END : (T - va) / (vb - va);
      t = t < END ? END : t > 1 - END ? 1 - END : t;
      const x = xy[2 * a] + t * (xy[2 * b] - xy[2 * a]), y = xy[2 * a + 1] + t * (xy[2 * b + 1] - xy[2 * a + 1]);
      // a point in line with the previous two (along a row of grid sites) replaces the last one
      const n = ring.length;
      if (n >= 4) {
        const x0 = ring[n - 4], y0 = ring[n - 3], x1 = ring[n - 2], y1 = ring[n - 1];
        if (Math.abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) < COLLINEAR * Math.hypot(x - x0, y - y0)) { ring[n - 2] = x; ring[n - 1] = y; return; }
      }
      ring.push(x, y);
    };
    for (let e0 = 0; e0 < tri.length; e0++) {
      // start at a half-edge leaving a point inside for one outside
      if (seen[e0] || !(value[tri[e0]] <= T) || value[tri[next(e0)]] <= T) continue;
      const ring: Ring = [];
      let e = e0;
      do {
        seen[e] = 1;
        cross(e, ring);
        // (Delaunator's triangles turn clockwise with y up: the walk keeps the area on its right;
        // the ring is reversed below) the triangle's other mixed edge runs from outside to inside; its twin, in the next
        // triangle, from inside to outside again
        const w = tri[prev(e)];
        const out = value[w] <= T ? next(e) : prev(e);
        e = half[out];
      } while (e !== e0 && e >= 0);
      ring.push(ring[0], ring[1]);
      rings.push(reverse(ring));
    }
    return nest(rings);
  });
}

function reverse(r: Ring): Ring {
  const out: Ring = new Array(r.length);
  for (let i = 0, n = r.length; i < n; i += 2) { out[n - 2 - i] = r[i]; out[n - 1 - i] = r[i + 1]; }
  return out;
}

function area(r: Ring): number {
  let s = 0;
  for (let i = 0; i + 3 < r.length; i += 2) s += r[i] * r[i + 3] - r[i + 2] * r[i + 1];
  return s / 2;
}

function inRing(x: number, y: number, r: Ring): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
    const xi = r[i], yi = r[i + 1], xj = r[j], yj = r[j + 1];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Outer rings (counter-clockwise) with the holes (clockwise) each encloses most tightly. */
function nest(rings: Ring[]): Ring[][] {
  const outer: { ring: Ring; a: number; box: number[]; holes: Ring[] }[] = [];
  const holes: Ring[] = [];
  for (const r of rings) {
    const a = area(r);
    if (a > 0) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let i = 0; i < r.length; i += 2) { const x = r[i], y = r[i + 1]; if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
      outer.push({ ring: r, a, box: [x0, y0, x1, y1], holes: [] });
    } else holes.push(r);
  }
  outer.sort((p, q) => p.a - q.a); // smallest first: the first that encloses a hole is its ring
  for (const h of holes) {
    const x = h[0], y = h[1];
    const o = outer.find((p) => x >= p.box[0] && x <= p.box[2] && y >= p.box[1] && y <= p.box[3] && inRing(x, y, p.ring));
    o?.holes.push(h);
  }
  return outer.map((p) => [p.ring, ...p.holes]);
}
