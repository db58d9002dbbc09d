// The turn builder: every allowed turn of a profile's compressed graph, with its duration and
// weight as OSRM's edge-based graph factory has the profile's process_turn compute them
// (src/extractor/edge_based_graph_factory.cpp), and the restrictions over via ways the
// edge-based stage enforces with copies. profileSegments keeps every obstacle node a graph node the
// turns pass through, and compress() keeps the plumbing (edgeWay, edgeAlong, shapeNode).
import { Int32Column } from '../int32-column.ts';
import type { RawNetwork } from '../osm/read.ts';
import type { BaseGraph } from '../contract/compress.ts';
import type { Profile, Turn, TurnLeg } from '../profiles/types.ts';
import type { TurnTable } from './types.ts';
import { ObstacleMap } from './obstacles.ts';
import { dropUndrivable, readRestrictions, restrictionNodes } from './restrictions.ts';
import { drivableSegments } from './segment-index.ts';
import { intersectionView, isUTurn, type Road } from './intersection.ts';
import { viaWayEdges } from './via-way.ts';
import { mergeRoads } from './merge.ts';
import { roadGraph } from './roads.ts';

export type { TurnTable } from './types.ts';

/** Counts of what the build saw, for logs and tests. */
export interface TurnStats {
  turns: number;
  uTurns: number;
  /** restrictions the profile reads, those whose ways do not meet as OSRM requires, those the graph cannot drive */
  restrictionsRead: number;
  restrictionsUnresolved: number;
  restrictionsUndrivable: number;
  /** via-way restrictions that never leave one base edge between from and to (nothing to enforce) */
  viaWayUnmapped: number;
}

export function buildTurns(net: RawNetwork, base: BaseGraph, profile: Profile): TurnTable & { stats: TurnStats } {
  if (!base.edgeWay || !base.edgeAlong || !base.shapeNode || !base.shapeWay || !base.wayTable) throw new Error('buildTurns: the base graph lacks edgeWay/edgeAlong/shapeNode/wayTable (compress what profileSegments made)');
  const ways = base.wayTable;
  const obstacles = new ObstacleMap(net, profile, (w) => ways.routed(w));
  const restr = readRestrictions(net, profile);
  const drivable = drivableSegments(base, restrictionNodes(restr));
  const undrivable = dropUndrivable(restr, (a, b) => drivable.has(a + ',' + b));
  const precision = 10 ** profile.properties.weightPrecision;
  const maxTurnWeight = 32767 / precision; // ProfileProperties::GetMaxTurnWeight
  const byDuration = profile.properties.weightName === 'duration';
  const suffixes = new Set((profile.nameSuffixes ?? []).map((x) => x.toLowerCase()));

  const g = roadGraph(base, ways, obstacles, restr, suffixes);
  const { alongWay } = g;
  /** deciseconds of a directed edge, as OSRM's edge data holds it */
  const ds = (d: number) => base.edgeW[Math.abs(d) - 1] / 100;
  const speedOf = (d: number, len: number) => Math.trunc((len / ds(d)) * 36);

  const leg = (r: Road): TurnLeg => {
    const d = r.out || r.in, w = r.way;
    return {
      isRestricted: ways.restricted(w, alongWay(d)), isMotorway: ways.motorway(w), isLink: ways.link(w),
      numberOfLanes: ways.numLanes(w), highwayTurnClassification: ways.highwayTurnClassification(w),
      accessTurnClassification: ways.accessTurnClassification(w), speed: speedOf(d, r.length), distance: r.length,
      priorityClass: ways.priorityClass(w), isIncoming: r.out ? r.in !== 0 : true, isOutgoing: r.out !== 0,
    };
  };

  const from = new Int32Column(), to = new Int32Column(), duration = new Int32Column(), weight = new Int32Column();
  let uTurns = 0;
  for (let x = 0; x < g.nodes; x++) {
    if (g.degree(x) === 0) continue;
    const roads = g.computeRoads(x, false);
    const merged = roads.length >= 2 ? mergeRoads(g.mergeGraph, x, [...roads].sort((a, b) => a.perceived - b.perceived)) : g.noMerge;
    const raw = g.nodeRaw[x];
    const it = g.intersectionAt(x, roads);
    const legs = new Map<Road, TurnLeg>();
    const legOf = (r: Road) => { let l = legs.get(r); if (!l) { l = leg(r); legs.set(r, l); } return l; };
    for (const rin of roads) {
      if (!rin.in) continue;
      const view = intersectionView(it, rin, merged);
      const obs = obstacles.get(rin.nextRaw, raw);
      const srcLeg = legOf(view[0].road);
      for (let t = 0; t < view.length; t++) {
        const vr = view[t];
        if (!vr.allowed) continue;
        const rout = vr.road;
        const uturn = isUTurn(vr.angle);
        const right: TurnLeg[] = [], left: TurnLeg[] = [];
        for (let k = 1; k < view.length; k++) {
          if (k === t) continue;
          (uturn || k < t ? right : left).push(legOf(view[k].road));
        }
        const sw = rin.way, tw = rout.way, sd = rin.in, td = rout.out;
        const turn: Turn = {
          angle: 180 - vr.angle, numberOfRoads: right.length + left.length + 2 - (uturn ? 1 : 0), isUTurn: uturn,
          hasTrafficLight: obs.some((o) => o.type === 'traffic_signals'), isLeftHandDriving: ways.leftHand(sw),
          sourceRestricted: ways.restricted(sw, alongWay(sd)), sourceMode: ways.mode(sw, alongWay(sd)),
          sourceIsMotorway: ways.motorway(sw), sourceIsLink: ways.link(sw), sourceNumberOfLanes: ways.numLanes(sw),
          sourceHighwayTurnClassification: ways.highwayTurnClassification(sw), sourceAccessTurnClassification: ways.accessTurnClassification(sw),
          sourceSpeed: speedOf(sd, rin.length), sourcePriorityClass: ways.priorityClass(sw),
          targetRestricted: ways.restricted(tw, alongWay(td)), targetMode: ways.mode(tw, alongWay(td)),
          targetIsMotorway: ways.motorway(tw), targetIsLink: ways.link(tw), targetNumberOfLanes: ways.numLanes(tw),
          targetHighwayTurnClassification: ways.highwayTurnClassification(tw), targetAccessTurnClassification: ways.accessTurnClassification(tw),
          targetSpeed: speedOf(td, rout.length), targetPriorityClass: ways.priorityClass(tw),
          sourceRoad: srcLeg, targetRoad: legOf(rout), roadsOnTheRight: right, roadsOnTheLeft: left,
          obstacles: obs, duration: 0, weight: 0,
        };
        profile.processTurn(turn);
        // ScriptingEnvironment::ProcessTurn, then the factory's integer penalties (truncated, as numeric_cast does)
        const w = byDuration ? turn.duration : Math.min(turn.weight, maxTurnWeight);
        from.push(sd); to.push(td);
        duration.push(Math.trunc(turn.duration * 10) * 100);
        weight.push((Math.trunc(w * precision) * 1000) / precision);
        if (uturn) uTurns++;
      }
    }
  }
  const via = viaWayEdges(restr.viaWay, base);
  return {
    count: from.length, from: from.take(), to: to.take(), duration: duration.take(), weight: weight.take(), viaWay: via.list,
    stats: { turns: from.length, uTurns, restrictionsRead: restr.read, restrictionsUnresolved: restr.unresolved, restrictionsUndrivable: undrivable, viaWayUnmapped: via.unmapped },
  };
}
