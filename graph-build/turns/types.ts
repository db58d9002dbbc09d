// The turns of one profile's compressed graph, as the edge-based stage consumes them.
//
// A directed base edge is written signed, as everywhere in the routing code: +(e+1) is base edge e
// driven edgeU→edgeV, -(e+1) driven edgeV→edgeU.
//
// Built by graph-build/turns/index.ts buildTurns(net, base, profile) from segments made with
// profileSegments(net, name) and their compress() (renumbered or not: only
// edge ids are used): only allowed turns are listed (no_* restrictions, one-ways, barriers, u-turns
// outside dead ends and turning places… are absent). Every node of svc's graph has its turns,
// including the nodes of two roads svc keeps for an obstacle (a signal, a gate), whose turns carry
// the obstacle as OSRM's compressed edge would. bench/turns-osrm.ts compares a table with
// osrm-extract's.
//
// Units: milliseconds, rounded as OSRM rounds (durations to whole deciseconds, weights to the
// profile's weight precision, 0.1 for car.lua), so sums agree with osrm-routed's to what it prints.

export interface TurnTable {
  count: number;
  /** directed base edge arriving at the via node */
  from: Int32Array;
  /** directed base edge leaving the via node */
  to: Int32Array;
  /** ms added by the turn itself (angle and u-turn penalties, obstacles at the via node) */
  duration: Int32Array;
  /**
   * the same turn in weight units (ms-scaled weight: car.lua routability; a turn from an unrestricted
   * road into a destination-only one weighs max_turn_weight, 3276.7 → 3,276,700)
   */
  weight: Int32Array;
  /**
   * Restrictions over a via way (or several), which a per-turn table cannot express: the path
   * from → via[0] → … → to is forbidden (`only` false) or, arriving by from then via[0..], only `to`
   * may follow (`only` true). Enforced by the edge-based stage with copies of the via edges.
   */
  viaWay: { from: number; via: number[]; to: number; only: boolean }[];
}

/** Weight of every base edge in the direction(s) it is open, beside the graph's edgeW (duration). */
export interface EdgeWeights {
  /** weight (ms-scaled) of base edge e in its open direction (a twin edge carries the other) */
  edgeWeight: Int32Array;
}
