// Segment lengths as osrm-routed measures them (util/coordinate_calculation.cpp
// fccApproximateDistance): mapbox's cheap ruler on the WGS84 ellipsoid, one ruler per 0.05° band
// of latitude (OSRM keeps 1,800, at each band's middle). On the short segments of a road it is
// within 0.1% of Vincenty; a sphere (haversine) is off by up to 0.56% north-south near the
// equator, enough to move answers by a km/h or a tenth of a second against osrm-routed's.

const RE = 6378.137; // km, equatorial radius
const FE = 1 / 298.257223563; // flattening
const E2 = FE * (2 - FE);
const RAD = Math.PI / 180;
const BAND = 0.05; // degrees, 90° / 1800 rulers
const NBANDS = 1800;

const KX = new Float64Array(NBANDS), KY = new Float64Array(NBANDS);
for (let n = 0; n < NBANDS; n++) {
  const lat = BAND * (n + 0.5), m = RAD * RE * 1000;
  const coslat = Math.cos(lat * RAD), w2 = 1 / (1 - E2 * (1 - coslat * coslat)), w = Math.sqrt(w2);
  KX[n] = m * w * coslat;
  KY[n] = m * w * w2 * (1 - E2);
}

/** Metres between two points (degrees), OSRM's way. */
export function osrmDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  // the band of the mean latitude in OSRM's fixed point (micro-degrees)
  const mid = Math.abs(Math.trunc((Math.round(lat1 * 1e6) + Math.round(lat2 * 1e6)) / 2));
  const n = Math.min(NBANDS - 1, Math.max(0, Math.floor((mid - 1) / (BAND * 1e6))));
  let dl = lon1 - lon2;
  while (dl < -180) dl += 360;
  while (dl > 180) dl -= 360;
  const dx = dl * KX[n], dy = (lat1 - lat2) * KY[n];
  return Math.sqrt(dx * dx + dy * dy);
}

/** The ruler's metres per degree of longitude and latitude for a segment, as osrmDistance picks them. */
function ruler(lat1: number, lat2: number): number {
  const mid = Math.abs(Math.trunc((Math.round(lat1 * 1e6) + Math.round(lat2 * 1e6)) / 2));
  return Math.min(NBANDS - 1, Math.max(0, Math.floor((mid - 1) / (BAND * 1e6))));
}

/** Bearing from the first point to the second, degrees clockwise from north in [0, 360], OSRM's way (cheap ruler). */
export function osrmBearing(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const n = ruler(lat1, lat2);
  let dl = lon2 - lon1;
  while (dl < -180) dl += 360;
  while (dl > 180) dl -= 360;
  const b = (Math.atan2(dl * KX[n], (lat2 - lat1) * KY[n]) * 180) / Math.PI;
  return b < 0 ? b + 360 : b;
}
