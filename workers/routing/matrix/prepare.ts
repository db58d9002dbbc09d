// A matrix request checked and snapped: its points in range, the rows it answers, the extract
// that covers every point, and each point's candidates on the roads (or, in a meeting, its search
// space as another thread wrote it).
import { TaskError } from '../../../src/core/task.ts';
import type { MatrixArgs } from '../../../src/core/tasks/index.ts';
import { coveringAll } from '../../../src/core/coverage.ts';
import { loadedGraphs, type LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { candidates, modeAndRadius, checkPoint } from '../locate/candidates.ts';
import { searchFor } from '../search/traffic-search.ts';

/** One point's upward search space in a side's region: n quadruples (node, weight, ms, metres) from data[at]. */
/** Numbers per node of a search space (Space below, meeting.ts): node, weight, ms, metres. */
export const SPACE_STRIDE = 4;
export interface Space { data: Float64Array; at: number; n: number }

/** The extract that covers every point (the smallest such), as /route picks one. */
export function pickGraph(mode: string, pts: [number, number][], radius: number): LoadedGraph {
  return coveringAll(loadedGraphs(), mode, pts, radius)[0];
}

/** A matrix request checked and snapped: sources of rows [r0, r1) and every destination. */
export interface Prepared {
  graph: LoadedGraph;
  radius: number;
  sp: [number, number][]; dp: [number, number][];
  r0: number; r1: number; cols: number;
  src: (Snap[] | null)[]; dst: (Snap[] | null)[];
  /** a destination's candidates on every SCC within the radius, computed once, when first needed */
  dstAll: (Snap[] | undefined)[];
  tr: ReturnType<typeof searchFor> | null;
  /** the points' upward search spaces, from the sides of a meeting matrix (MatrixArgs.phase) */
  given?: { src: (Space | null)[]; dst: (Space | null)[] };
}

/** The request's points checked, its rows and the extract that covers them all. */
export function checked(args: MatrixArgs) {
  const { mode, radius } = modeAndRadius(args);
  if (!Array.isArray(args.sources) || !args.sources.length) throw new TaskError(400, 'invalid_parameter', "Parameter 'sources' must list at least one point.");
  if (!Array.isArray(args.destinations) || !args.destinations.length) throw new TaskError(400, 'invalid_parameter', "Parameter 'destinations' must list at least one point.");
  const sp = args.sources.map((p, i) => checkPoint(p, 'sources', i));
  const dp = args.destinations.map((p, i) => checkPoint(p, 'destinations', i));
  const [r0, r1] = args.rows ?? [0, sp.length];
  if (!(Number.isInteger(r0) && Number.isInteger(r1) && r0 >= 0 && r0 < r1 && r1 <= sp.length)) throw new TaskError(400, 'invalid_parameter', "Parameter 'rows' is out of range.");
  const graph = pickGraph(mode, [...sp, ...dp], radius);
  return { graph, radius, sp, dp, r0, r1, cols: dp.length };
}

/** The request checked and snapped, or with `spaces` (every side's, readSides) read back from them. */
export function prepare(args: MatrixArgs, spaces?: Uint8Array[], c = checked(args)): Prepared {
  const { graph, radius, sp, dp, r0, r1 } = c;
  const tr = args.traffic && args.traffic !== 'none' ? searchFor(graph, args) : null;
  if (spaces) {
    if (tr) throw new TaskError(400, 'invalid_parameter', 'A matrix with traffic is not computed from search spaces.');
    return { ...c, ...readSpaces(spaces, sp.length, dp.length, r0, r1), dstAll: [], tr: null };
  }
  const src = sp.map((p, i) => (i >= r0 && i < r1 ? candidates(graph, p[0], p[1], radius) : null));
  const dst = dp.map((p) => candidates(graph, p[0], p[1], radius));
  return { ...c, src, dst, dstAll: [], tr };
}

/**
 * The sides' spaces, in order, back into the candidates and search space of every destination
 * and of the sources of rows [r0, r1) (null for the other sources, which this part never reads).
 */
export function readSpaces(bufs: Uint8Array[], S: number, D: number, r0: number, r1: number) {
  const bad = () => new TaskError(400, 'invalid_parameter', 'The search spaces do not describe every point of the matrix.');
  const src: (Snap[] | null)[] = [], dst: (Snap[] | null)[] = [], gs: (Space | null)[] = [], gd: (Space | null)[] = [];
  let i = 0;
  for (const b of bufs) {
    const data = new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
    for (let k = 0; k < data.length; i++) {
      const nc = data[k++];
      let snaps: Snap[] | null = null, space: Space | null = null;
      if (nc && i < S && (i < r0 || i >= r1)) {
        k += 7 * nc;
        k += 1 + SPACE_STRIDE * data[k];
      } else if (nc) {
        snaps = [];
        for (let j = 0; j < nc; j++, k += 7) snaps.push({ edge: data[k], pt: data[k + 1], pos: data[k + 2], frac: data[k + 3], lat: data[k + 4], lng: data[k + 5], dist: data[k + 6] });
        const n = data[k++];
        space = { data, at: k, n };
        k += SPACE_STRIDE * n;
      }
      if (!(k <= data.length && i < S + D)) throw bad();
      if (i < S) { src.push(snaps); gs.push(space); } else { dst.push(snaps); gd.push(space); }
    }
  }
  if (i !== S + D) throw bad();
  return { src, dst, given: { src: gs, dst: gd } };
}

