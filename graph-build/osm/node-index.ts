// Node coordinates by OSM id for a whole extract: three growing Float64Arrays searched by binary
// search, ~24 bytes a node. A JS Map would cost ~4 times that and cannot hold a country: V8 caps
// a Map at 2^24 entries (16.7M), and Kenya's extract alone has more nodes. Used by the road
// reader (graph-build/osm/read.ts) and by the gazetteer, places and country builds.

export class NodeIndex {
  private ids = new Float64Array(1 << 16);
  private lats = new Float64Array(1 << 16);
  private lons = new Float64Array(1 << 16);
  private n = 0;
  private sorted = true;

  add(id: number, lat: number, lon: number) {
    if (this.n === this.ids.length) {
      const grow = (a: Float64Array) => { const b = new Float64Array(a.length * 2); b.set(a); return b; };
      this.ids = grow(this.ids); this.lats = grow(this.lats); this.lons = grow(this.lons);
    }
    // equal too: a node another file holds as well
    if (this.n > 0 && id <= this.ids[this.n - 1]) this.sorted = false;
    this.ids[this.n] = id; this.lats[this.n] = lat; this.lons[this.n] = lon;
    this.n++;
  }

  get size(): number { return this.n; }

  /** Index of node `id` (for lat/lon), or -1. Sorts once on the first lookup if the nodes came out of order. */
  find(id: number): number {
    if (!this.sorted) this.sort();
    const ids = this.ids;
    let lo = 0, hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }

  lat(i: number): number { return this.lats[i]; }
  lon(i: number): number { return this.lons[i]; }

  /** Sorted, one entry per id, trimmed to size: the arrays themselves (index = find's), for a graph build to keep. */
  arrays(): { ids: Float64Array; lat: Float64Array; lon: Float64Array } {
    if (!this.sorted) this.sort();
    if (this.ids.length !== this.n) {
      this.ids = this.ids.slice(0, this.n); this.lats = this.lats.slice(0, this.n); this.lons = this.lons.slice(0, this.n);
    }
    return { ids: this.ids, lat: this.lats, lon: this.lons };
  }

  /**
   * Rare in one file (osmium sorts by default), usual with several: sorts an index permutation so
   * lookups can binary-search, keeping the first copy of a node two files share.
   */
  private sort() {
    const ids = this.ids;
    const perm = Uint32Array.from({ length: this.n }, (_, i) => i).sort((a, b) => ids[a] - ids[b] || a - b);
    let n = 0;
    for (let j = 0; j < perm.length; j++) if (j === 0 || ids[perm[j]] !== ids[perm[j - 1]]) perm[n++] = perm[j];
    const keep = perm.subarray(0, n);
    this.ids = Float64Array.from(keep, (i) => ids[i]);
    this.lats = Float64Array.from(keep, (i) => this.lats[i]);
    this.lons = Float64Array.from(keep, (i) => this.lons[i]);
    this.n = n;
    this.sorted = true;
  }
}
