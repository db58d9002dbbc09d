// The query addon (native/query, built by `npm install` beside the other addons): the many-to-many
// search (upward.ts's searches and buckets.ts's buckets step for step, so a matrix's cells are bit
// for bit the TypeScript ones, in less than half the time) and snapping's nearest-segment search
// (locate/snap.ts, the same segment, fraction and metres), and a matrix's rows as JSON text
// (matrix/json.ts, the same bytes). Without a compiler at install (or with
// QUERY_NATIVE=0) both run in TypeScript, as before.
import { createRequire } from 'node:module';
import { QUERY_ADDON } from '../../../src/core/config.ts';
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT, type GraphViews } from '../../../src/core/format/route.ts';
import { Settled } from './upward.ts';

/** Handles the addon hands out: a graph's arrays, a thread's matrix state. */
export type NativeGraph = { readonly __nativeGraph: unique symbol };
export type NativeIndex = { readonly __nativeIndex: unique symbol };
export type NativeSnapIndex = { readonly __nativeSnapIndex: unique symbol };

/**
 * Each point's list, flat: point i's entries are [off[i], off[i + 1]) of node, d, t, m; an empty
 * range is a point without a road. Seeds of a search, or (searched = false) its settled space.
 */
export interface PointLists { off: Int32Array; node: Int32Array; d: Float64Array; t: Float64Array; m: Float64Array }

interface Addon {
  graph(chFirst: Uint32Array, chArc: Int32Array, chDur: Int32Array, chDist: Float32Array, format: Record<string, number>): NativeGraph;
  index(): NativeIndex;
  /** The destinations' buckets (one backward search each, or their given spaces); returns the bytes the index holds. */
  build(g: NativeGraph, idx: NativeIndex, off: Int32Array, node: Int32Array, d: Float64Array, t: Float64Array, m: Float64Array, searched: boolean): number;
  /** Each source's forward search (or given space) scanned against the buckets, into cells row-major, `cols` a row. */
  scan(g: NativeGraph, idx: NativeIndex, off: Int32Array, node: Int32Array, d: Float64Array, t: Float64Array, m: Float64Array, searched: boolean,
    weight: Float64Array, ms: Float64Array, metres: Float64Array, cols: number): void;
  /** A handle on a graph's snapping index (flatbush's packed tree) and segment arrays. */
  snapIndex(boxes: Float64Array, indices: Uint32Array | Uint16Array, levelBounds: Uint32Array, nodeSize: number, numItems: number,
    segPt: Uint32Array, segEdge: Int32Array, shapeLat: Int32Array, shapeLon: Int32Array, edgeFlags: Uint8Array, edgeComp: Int32Array): NativeSnapIndex;
  /**
   * The nearest segment: io holds [x, y, lat, lng, kx, ky, maxBox, slack, skipFlags, metres per degree] and
   * gets [segment (-1: none), fraction, metres]; `components` a mask by component id, or null for any.
   */
  nearest(h: NativeSnapIndex, io: Float64Array, components?: Uint8Array | null): void;
  /**
   * A matrix row as JSON text (matrix/json.ts ByteWriter.rows) at byte n of out: the new end, or -1
   * when a value is one TypeScript writes (10^8 or more). out holds 24 bytes a cell and 8 more past n.
   */
  row(arr: Float64Array, off: number, cols: number, secs: boolean, out: Uint8Array, n: number): number;
}

let addon: Addon | null | undefined;
let enabled = process.env.QUERY_NATIVE !== '0';

/** The addon, or null when it did not build, QUERY_NATIVE=0, or a test turned it off. */
export function queryAddon(): Addon | null {
  if (!enabled) return null;
  if (addon !== undefined) return addon;
  try {
    addon = createRequire(import.meta.url)(QUERY_ADDON) as Addon;
  } catch {
    addon = null; // the TypeScript search answers the same cells
  }
  return addon;
}

/** Tests compare both searches in one process. */
export function useNativeQuery(on: boolean) { enabled = on; }

const graphs = new WeakMap<GraphViews, NativeGraph>();
/** The addon's handle on a graph's hierarchy (made once per graph and thread). */
export function nativeGraph(a: Addon, g: GraphViews): NativeGraph {
  let h = graphs.get(g);
  if (!h) {
    h = a.graph(g.chFirst, g.chArc, g.chDur, g.chDist, { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT });
    graphs.set(g, h);
  }
  return h;
}

/**
 * Growable flat point lists, reused from matrix to matrix: upward.ts's Settled arrays (entries in
 * order), cut into points by `off`.
 */
export class ListWriter extends Settled {
  private points = 0;
  off = new Int32Array(257);
  clear() { this.n = 0; this.points = 0; this.off[0] = 0; }
  /** Adds an entry to the point being written (a seed: the name upward.ts's seed() has). */
  seed(x: number, d: number, t: number, m: number) { this.add(x, d, t, m); }
  /** Ends the point being written. */
  close() {
    if (this.points + 2 > this.off.length) { const o = new Int32Array(this.off.length * 2); o.set(this.off); this.off = o; }
    this.off[++this.points] = this.n;
  }
  lists(): PointLists {
    return { off: this.off.subarray(0, this.points + 1), node: this.node, d: this.d, t: this.t, m: this.m };
  }
}
