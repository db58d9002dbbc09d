// OSM `duration=` as OSRM's extractor parses it (include/extractor/extraction_helper_functions.hpp):
// "M", "H:MM", "H:MM:SS" (one or two digits each), or ISO 8601 "PnW", "PThhmmss", "PThh:mm:ss",
// "P[nD][T[nH][nM][nS]]". Seconds, or undefined when invalid.

const osm = /^(\d{1,2})(?::(\d{1,2})(?::(\d{1,2}))?)?$/;
const week = /^P(\d+)[Ww]$/;
const alt = /^PT(\d{2})(\d{2})(\d{2})$/;
const ext = /^PT(\d{2}):(\d{2}):(\d{2})$/;
const std = /^P(?:(\d+)[Dd])?(?:T(?:(\d+)[Hh])?(?:(\d+)[Mm])?(?:(\d+)[Ss])?)?$/;

export function parseDuration(s: string): number | undefined {
  let m = osm.exec(s);
  if (m) {
    if (m[2] === undefined) return Number(m[1]) * 60;
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + (m[3] === undefined ? 0 : Number(m[3]));
  }
  if ((m = week.exec(s))) return Number(m[1]) * 604800;
  for (const re of [alt, ext]) {
    m = re.exec(s);
    // hh < 24, mm and ss < 60 (the grammar rejects the match otherwise and tries the next form)
    if (m && Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3]) < 60) return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  }
  if ((m = std.exec(s))) {
    return Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  }
  return undefined;
}
