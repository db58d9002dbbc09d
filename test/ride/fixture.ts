// A small road network for the ride-hailing suites, near Nairobi (Kenya drives on the left):
// two north-south streets either side of a river, joined only by a bridge 2.8 km south, so a
// vehicle across the river is nearer in a straight line but further by road; an island street
// 3 km east with no link to the rest; a two-way street and a oneway street west of the river
// for the pickup points.
import { join } from 'node:path';
import { buildRoadNetwork } from '../../graph-build/roads.ts';
import { network } from '../routing/helpers.ts';

export const FIX = {
  /** On the west street. */
  rider: { lat: -1.2850, lng: 36.8150 },
  /** Across the river from the rider: 1.1 km in a straight line, ~6.7 km by road. */
  across: { lat: -1.2850, lng: 36.8250 },
  /** Down the rider's own street: 1.7 km in a straight line and by road. */
  sameSide: { lat: -1.3000, lng: 36.8150 },
  /** On the island street: a road, but no route to the rider. */
  island: { lat: -1.2900, lng: 36.8500 },
  /** Inside the extract's box, but over 1 km (the snap radius) from every road. */
  field: { lat: -1.3000, lng: 36.8375 },
  /** 3.5 km north of the extract: outside it. */
  outside: { lat: -1.2500, lng: 36.8000 },
  /** The two-way street Mbagathi Lane runs west-east at this latitude, from 36.7950 to 36.8150. */
  lane: { lat: -1.2950, west: 36.7950, east: 36.8150 },
  /** The oneway street Oneway Close runs west to east at this latitude, from 36.7950 to 36.8150. */
  close: { lat: -1.3050, west: 36.7950, east: 36.8150 },
};

export function buildRideNetwork(builtDir: string, name = 'ride-fixture') {
  const net = network(
    {
      wn: [-1.2800, 36.8150], wl: [FIX.lane.lat, 36.8150], wc: [FIX.close.lat, 36.8150], ws: [-1.3100, 36.8150],
      en: [-1.2800, 36.8250], es: [-1.3100, 36.8250],
      lw: [FIX.lane.lat, FIX.lane.west], cw: [FIX.close.lat, FIX.close.west],
      in: [-1.2850, 36.8500], is: [-1.2950, 36.8500],
    },
    [
      [['wn', 'wl', 'wc', 'ws'], { highway: 'residential', name: 'West Street' }],
      [['en', 'es'], { highway: 'residential', name: 'East Street' }],
      [['ws', 'es'], { highway: 'residential', name: 'Bridge Road', bridge: 'yes' }],
      [['lw', 'wl'], { highway: 'residential', name: 'Mbagathi Lane' }],
      [['cw', 'wc'], { highway: 'residential', name: 'Oneway Close', oneway: 'yes' }],
      [['in', 'is'], { highway: 'residential', name: 'Island Street' }],
    ],
  );
  buildRoadNetwork(net, { name, out: builtDir, profiles: ['driving', 'walk'] });
  return join(builtDir, name);
}
