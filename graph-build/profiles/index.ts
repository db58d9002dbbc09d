// The routing profiles a build can apply, by svc's names: OSRM's own profiles ported rule for rule,
// `driving` car.lua (car.ts), `walk` foot.lua (foot.ts), `cycle` bicycle.lua (bicycle.ts), which the
// /osrm/ layer answers for car, foot and bike. `driving_tracks` is car.lua that also drives highway=track
// (rural Africa's roads, which car.lua refuses), built only when an operator asks for it.
// Weight everywhere is travel time in integer milliseconds (graph-build/contract/compress.ts).
import type { Profile } from './types.ts';
import { car, makeCarProfile, CAR, CAR_WAY_TAGS, CAR_NODE_TAGS } from './car.ts';
import { foot } from './foot.ts';
import { bicycle } from './bicycle.ts';

export type ProfileName = 'driving' | 'walk' | 'cycle' | 'driving_tracks';
/** Built by default. */
export const PROFILES: ProfileName[] = ['driving', 'walk', 'cycle'];
/** Every profile an operator may ask for (`--profiles`). */
export const ALL_PROFILES: ProfileName[] = ['driving', 'walk', 'cycle', 'driving_tracks'];

/** km/h on highway=track in `driving_tracks` (car.lua's surface and tracktype caps still apply). */
export const TRACK_SPEED = 15;

const drivingTracks = makeCarProfile('driving_tracks', { ...CAR, speeds: { highway: { ...CAR.speeds.highway, track: TRACK_SPEED } } });

const BY_NAME: Record<ProfileName, Profile> = {
  driving: car,
  driving_tracks: drivingTracks,
  walk: foot,
  cycle: bicycle,
};

export function profileFor(name: ProfileName): Profile {
  const p = BY_NAME[name];
  if (!p) throw new Error(`unknown profile '${name}' (known: ${ALL_PROFILES.join(', ')})`);
  return p;
}

/** Every way / node tag key some profile reads (the OSM reader keeps these and drops the rest). */
export const PROFILE_WAY_TAGS: string[] = [...new Set(Object.values(BY_NAME).flatMap((p) => [...p.wayTags]))];
export const PROFILE_NODE_TAGS: string[] = [...new Set(Object.values(BY_NAME).flatMap((p) => [...p.nodeTags]))];
export { CAR_WAY_TAGS, CAR_NODE_TAGS };
