// A fresh ExtractionWay (OSRM's defaults: modes inaccessible until a handler sets them, speeds,
// rates, duration and weight unset = -1) and the final "can this direction be travelled" test
// OSRM's extractor applies after the profile (ExtractorCallbacks::ProcessWay).
import type { WayResult } from '../types.ts';
import { newClassification } from './guidance.ts';

export function newWayResult(): WayResult {
  return {
    forwardMode: 'inaccessible', backwardMode: 'inaccessible', forwardSpeed: -1, backwardSpeed: -1,
    forwardRate: -1, backwardRate: -1, duration: -1, weight: -1, name: '', forwardRef: '', backwardRef: '',
    pronunciation: '', destinations: '', exits: '', turnLanesForward: '', turnLanesBackward: '',
    roadClassification: newClassification(), roundabout: false, circular: false, isStartpoint: true,
    forwardRestricted: false, backwardRestricted: false, isLeftHandDriving: false,
    forwardClasses: [], backwardClasses: [], highwayTurnClassification: 0, accessTurnClassification: 0, highway: '',
  };
}

/** A direction is travelled when its mode is not inaccessible and it has a speed or the way a duration. */
export const forwardOpen = (r: WayResult) => r.forwardMode !== 'inaccessible' && (r.forwardSpeed > 0 || r.duration > 0);
export const backwardOpen = (r: WayResult) => r.backwardMode !== 'inaccessible' && (r.backwardSpeed > 0 || r.duration > 0);
