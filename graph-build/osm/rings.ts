// Areas from OpenStreetMap relations: member ways (node-id lists, any order, either direction)
// joined end to end into closed rings; holes fall out of even-odd tests over all rings.

/** Joins way node lists into closed rings (greedy end-to-end matching); unclosable chains are dropped. */
export function assembleRings(parts: number[][]): number[][] {
  const open = parts.filter((p) => p.length >= 2).map((p) => [...p]);
  const rings: number[][] = [];
  while (open.length) {
    let ring = open.shift()!;
    for (let guard = 0; ring[0] !== ring[ring.length - 1] && guard < 100000; guard++) {
      const end = ring[ring.length - 1];
      const i = open.findIndex((p) => p[0] === end || p[p.length - 1] === end);
      if (i < 0) break;
      const p = open.splice(i, 1)[0];
      ring = ring.concat((p[0] === end ? p : [...p].reverse()).slice(1));
    }
    if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
  }
  return rings;
}

/**
 * Every member in a closed ring, or null: for an answer of "inside" (an admin boundary) a relation
 * with a member missing or a chain left open (clipped by the extract's edge) is worse than none.
 */
export function closedRings(parts: (number[] | undefined)[]): number[][] | null {
  if (!parts.length || parts.some((p) => !p || p.length < 2)) return null;
  const rings = assembleRings(parts as number[][]);
  // a ring of k parts has 1 + Σ(len - 1) vertices, so all parts were used iff the counts agree
  const used = rings.reduce((a, r) => a + r.length - 1, 0);
  const given = (parts as number[][]).reduce((a, p) => a + p.length - 1, 0);
  return rings.length && used === given ? rings : null;
}
