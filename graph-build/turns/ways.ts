// What a turn needs to know of each way, per direction, from the profile's process_way
// (ExtractionWay → OSRM's NodeBasedEdgeClassification and annotation): mode, restricted,
// road classification, turn classifications, roundabout, driving side, a u-turn lane. Kept in
// typed arrays by way index, so a continent's ways cost bytes, not objects. profileSegments fills
// one as it applies the profile to each way (compress hands it on to the turns), so the profile's
// process_way, a sixth of a country build's time outside contraction, runs once per way, not twice.
import type { TravelMode, WayResult } from '../profiles/types.ts';
import type { RoadName } from './names.ts';

const MODES: TravelMode[] = ['inaccessible', 'driving', 'cycling', 'walking', 'ferry', 'train', 'pushing bike',
  'steps up', 'steps down', 'river upstream', 'river downstream', 'route'];

const F_MOTORWAY = 1, F_LINK = 2, F_ROUNDABOUT = 4, F_CIRCULAR = 8, F_LEFT_HAND = 16, F_RESTRICTED_FW = 32,
  F_RESTRICTED_BW = 64, F_UTURN_LANE_FW = 128, F_UTURN_LANE_BW = 256, F_ROUTED = 512, F_LOW_PRIORITY = 1024, F_RAMP = 2048;

export class WayTable {
  private flags: Uint16Array;
  private modeFw: Uint8Array;
  private modeBw: Uint8Array;
  private lanes: Uint8Array;
  private priority: Uint8Array;
  private htc: Int32Array;
  private atc: Int32Array;
  private keyFw: Int32Array;
  private keyBw: Int32Array;
  private nameFw: Int32Array;
  private nameBw: Int32Array;
  private classKey: Int32Array;
  /** interned names (OSRM's string_view_id: name, destinations, pronunciation, ref, exits), 0 the empty one */
  readonly names: RoadName[] = [{ name: '', ref: '', pronunciation: '', exits: '', destinations: '' }];

  private keys = new Map<string, number>();
  private nameIds = new Map<string, number>([[JSON.stringify(['', '', '', '', '']), 0]]);

  /** A table of `n` ways, none routed until add() says what the profile made of it. */
  constructor(n: number) {
    this.flags = new Uint16Array(n); this.modeFw = new Uint8Array(n); this.modeBw = new Uint8Array(n);
    this.lanes = new Uint8Array(n); this.priority = new Uint8Array(n); this.htc = new Int32Array(n); this.atc = new Int32Array(n);
    this.keyFw = new Int32Array(n).fill(-1); this.keyBw = new Int32Array(n).fill(-1);
    this.nameFw = new Int32Array(n); this.nameBw = new Int32Array(n); this.classKey = new Int32Array(n);
  }

  private internName(x: RoadName): number {
    const k = JSON.stringify([x.name, x.destinations, x.pronunciation, x.ref, x.exits]);
    let v = this.nameIds.get(k);
    if (v === undefined) { v = this.names.length; this.names.push(x); this.nameIds.set(k, v); }
    return v;
  }

  private intern(k: string): number {
    let v = this.keys.get(k);
    if (v === undefined) { v = this.keys.size; this.keys.set(k, v); }
    return v;
  }

  /** Way w as the profile's process_way answered for it (a way it drops is never added). */
  add(w: number, r: WayResult) {
    const c = r.roadClassification;
    let f = F_ROUTED;
    if (c.motorwayClass) f |= F_MOTORWAY;
    if (c.linkClass) f |= F_LINK;
    if (r.roundabout) f |= F_ROUNDABOUT;
    if (r.circular) f |= F_CIRCULAR;
    if (r.isLeftHandDriving) f |= F_LEFT_HAND;
    if (r.forwardRestricted) f |= F_RESTRICTED_FW;
    if (r.backwardRestricted) f |= F_RESTRICTED_BW;
    if (hasUTurnLane(r.turnLanesForward)) f |= F_UTURN_LANE_FW;
    if (hasUTurnLane(r.turnLanesBackward)) f |= F_UTURN_LANE_BW;
    if (c.mayBeIgnored) f |= F_LOW_PRIORITY;
    if (c.linkClass && c.motorwayClass) f |= F_RAMP;
    this.flags[w] = f;
    this.modeFw[w] = Math.max(0, MODES.indexOf(r.forwardMode));
    this.modeBw[w] = Math.max(0, MODES.indexOf(r.backwardMode));
    this.lanes[w] = Math.min(255, c.numLanes);
    this.priority[w] = c.priority;
    this.htc[w] = r.highwayTurnClassification;
    this.atc[w] = r.accessTurnClassification;
    // what OSRM's graph compressor compares across a node (edge classification and annotation)
    const fOpen = r.forwardMode !== 'inaccessible', bOpen = r.backwardMode !== 'inaccessible';
    const split = fOpen && bOpen && (r.forwardRate !== r.backwardRate || r.forwardSpeed !== r.backwardSpeed || r.forwardMode !== r.backwardMode
      || r.turnLanesForward !== r.turnLanesBackward || r.forwardClasses.join() !== r.backwardClasses.join() || r.forwardRef !== r.backwardRef);
    // NodeBasedEdgeClassification::operator== (RoadClassification without its lanes) and NodeBasedEdgeAnnotation::CanCombineWith
    const common = [r.roundabout, r.circular, r.isStartpoint, c.motorwayClass, c.linkClass, c.mayBeIgnored, c.priority,
      r.isLeftHandDriving, split, r.name, r.destinations, r.pronunciation, r.exits];
    const key = (fw: boolean) => this.intern(JSON.stringify([...common, fw ? fOpen : bOpen, split ? false : fw ? bOpen : fOpen,
      fw ? r.forwardRestricted : r.backwardRestricted, fw ? r.forwardMode : r.backwardMode, fw ? r.forwardClasses : r.backwardClasses, fw ? r.forwardRef : r.backwardRef]));
    this.keyFw[w] = key(true); this.keyBw[w] = key(false);
    const nm = (ref: string) => this.internName({ name: r.name, ref, pronunciation: r.pronunciation, exits: r.exits, destinations: r.destinations });
    this.nameFw[w] = nm(r.forwardRef); this.nameBw[w] = nm(r.backwardRef);
    // RoadClassification::operator== reads no lane count
    this.classKey[w] = this.intern(JSON.stringify(['class', c.motorwayClass, c.linkClass, c.mayBeIgnored, c.priority]));
  }

  nameId(w: number, forward: boolean) { return forward ? this.nameFw[w] : this.nameBw[w]; }
  /** equal for equal RoadClassification */
  classification(w: number) { return this.classKey[w]; }
  /** Equal for two ways (each in a direction) OSRM's graph compressor may join at a node. */
  compressKey(w: number, forward: boolean) { return forward ? this.keyFw[w] : this.keyBw[w]; }
  routed(w: number) { return (this.flags[w] & F_ROUTED) !== 0; }
  /** `forward`: along the way's node order. */
  mode(w: number, forward: boolean): TravelMode { return MODES[forward ? this.modeFw[w] : this.modeBw[w]]; }
  restricted(w: number, forward: boolean) { return (this.flags[w] & (forward ? F_RESTRICTED_FW : F_RESTRICTED_BW)) !== 0; }
  uTurnLane(w: number, forward: boolean) { return (this.flags[w] & (forward ? F_UTURN_LANE_FW : F_UTURN_LANE_BW)) !== 0; }
  motorway(w: number) { return (this.flags[w] & F_MOTORWAY) !== 0; }
  link(w: number) { return (this.flags[w] & F_LINK) !== 0; }
  roundabout(w: number) { return (this.flags[w] & F_ROUNDABOUT) !== 0; }
  circular(w: number) { return (this.flags[w] & F_CIRCULAR) !== 0; }
  leftHand(w: number) { return (this.flags[w] & F_LEFT_HAND) !== 0; }
  /** RoadClassification::IsLowPriorityRoadClass (may_be_ignored) */
  lowPriority(w: number) { return (this.flags[w] & F_LOW_PRIORITY) !== 0; }
  /** RoadClassification::IsRampClass: a motorway link */
  ramp(w: number) { return (this.flags[w] & F_RAMP) !== 0; }
  numLanes(w: number) { return this.lanes[w]; }
  priorityClass(w: number) { return this.priority[w]; }
  highwayTurnClassification(w: number) { return this.htc[w]; }
  accessTurnClassification(w: number) { return this.atc[w]; }
}

/** A `reverse` lane in turn:lanes (OSRM's TurnLaneType::uturn). */
function hasUTurnLane(lanes: string): boolean {
  if (!lanes) return false;
  return lanes.split('|').some((l) => l.split(';').some((t) => t.trim() === 'reverse'));
}
