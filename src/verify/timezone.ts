// Which clock "night" is read on: the IANA zone of the pin's country. Nights are local (a
// phone in Lagos is home at 23:00 WAT, not 23:00 UTC), and the zone database (Node's ICU)
// knows the daylight-saving rules of the few African zones that have them (Morocco, Egypt).
// Countries spanning two zones are split by longitude; a pin in no known country falls back
// to the nominal offset of its longitude (Etc/GMT±N), which is the most that can be said.

const ZONES: Record<string, string> = {
  DZ: 'Africa/Algiers', AO: 'Africa/Luanda', BJ: 'Africa/Porto-Novo', BW: 'Africa/Gaborone', BF: 'Africa/Ouagadougou',
  BI: 'Africa/Bujumbura', CV: 'Atlantic/Cape_Verde', CM: 'Africa/Douala', CF: 'Africa/Bangui', TD: 'Africa/Ndjamena',
  KM: 'Indian/Comoro', CG: 'Africa/Brazzaville', CI: 'Africa/Abidjan', DJ: 'Africa/Djibouti', EG: 'Africa/Cairo',
  GQ: 'Africa/Malabo', ER: 'Africa/Asmara', SZ: 'Africa/Mbabane', ET: 'Africa/Addis_Ababa', GA: 'Africa/Libreville',
  GM: 'Africa/Banjul', GH: 'Africa/Accra', GN: 'Africa/Conakry', GW: 'Africa/Bissau', KE: 'Africa/Nairobi',
  LS: 'Africa/Maseru', LR: 'Africa/Monrovia', LY: 'Africa/Tripoli', MG: 'Indian/Antananarivo', MW: 'Africa/Blantyre',
  ML: 'Africa/Bamako', MR: 'Africa/Nouakchott', MU: 'Indian/Mauritius', MA: 'Africa/Casablanca', MZ: 'Africa/Maputo',
  NA: 'Africa/Windhoek', NE: 'Africa/Niamey', NG: 'Africa/Lagos', RW: 'Africa/Kigali', ST: 'Africa/Sao_Tome',
  SN: 'Africa/Dakar', SC: 'Indian/Mahe', SL: 'Africa/Freetown', SO: 'Africa/Mogadishu', ZA: 'Africa/Johannesburg',
  SS: 'Africa/Juba', SD: 'Africa/Khartoum', TZ: 'Africa/Dar_es_Salaam', TG: 'Africa/Lome', TN: 'Africa/Tunis',
  UG: 'Africa/Kampala', ZM: 'Africa/Lusaka', ZW: 'Africa/Harare', EH: 'Africa/El_Aaiun',
};

/** A zone name Node's ICU accepts. */
export function isZone(z: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: z });
    return true;
  } catch {
    return false;
  }
}

/** The zone nights are read in for a pin, given its country when known. */
export function zoneFor(country: string | null | undefined, lat: number, lng: number): string {
  const cc = country?.toUpperCase();
  // The DRC: Kinshasa time (UTC+1) in the west, Lubumbashi time (UTC+2) in the east.
  if (cc === 'CD') return lng < 22 ? 'Africa/Kinshasa' : 'Africa/Lubumbashi';
  if (cc && ZONES[cc]) return ZONES[cc];
  void lat;
  const h = Math.max(-12, Math.min(12, Math.round(lng / 15)));
  // Etc/GMT zones carry the POSIX sign: Etc/GMT-3 is three hours ahead of UTC.
  return h === 0 ? 'Etc/UTC' : `Etc/GMT${h > 0 ? '-' : '+'}${Math.abs(h)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Local calendar date and time of an instant in a zone. */
export function localParts(ms: number, zone: string): { y: number; m: number; d: number; hour: number; minute: number } {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(ms)) p[x.type] = x.value;
  return { y: +p.year, m: +p.month, d: +p.day, hour: +p.hour, minute: +p.minute };
}

/** The instant a local wall-clock time happens in a zone (the first one, around a DST change). */
export function instantOf(y: number, m: number, d: number, hour: number, zone: string): number {
  let guess = Date.UTC(y, m - 1, d, hour);
  // Two corrections settle the zone offset (offsets change at most once near the guess).
  for (let i = 0; i < 2; i++) {
    const p = localParts(guess, zone);
    const shown = Date.UTC(p.y, p.m - 1, p.d, p.hour, p.minute);
    guess += Date.UTC(y, m - 1, d, hour) - shown;
  }
  return guess;
}

const HOUR = 3_600_000;
const offsets = new Map<string, number>();

/**
 * The zone's offset from UTC (ms) at an instant. Zone offsets change only at whole UTC hours in
 * every African zone, so one Intl call per (zone, UTC hour) serves every fix in that hour: a
 * 14-day window of one fix a minute costs 336 calls instead of 20,160.
 */
export function offsetAt(ms: number, zone: string): number {
  const bucket = Math.floor(ms / HOUR);
  const key = `${zone}\u0000${bucket}`;
  let off = offsets.get(key);
  if (off === undefined) {
    const t = bucket * HOUR;
    const p = localParts(t, zone);
    off = Date.UTC(p.y, p.m - 1, p.d, p.hour, p.minute) - t;
    if (offsets.size >= 200_000) offsets.clear();
    offsets.set(key, off);
  }
  return off;
}
