// Number parsing of OSM measures exactly as profiles/lib/measure.lua reads them: Lua patterns, so
// "50 mph" is 50 × 1.609 km/h, "2,5 m" 2.5 m, 6'7" feet and inches, "3.5" tonnes.

const MILES_TO_KM = 1.609;
const INCH = 0.0254;

/** Leading digits only (Lua `source:match("%d*")`), then mph → km/h; undefined when it starts with no digit. */
export function parseValueSpeed(s: string): number | undefined {
  const m = /^\d+/.exec(s);
  if (!m) return undefined;
  let n = Number(m[0]);
  if (s.includes('mph') || s.includes('mp/h')) n *= MILES_TO_KM;
  return n;
}

/** First number anywhere ("," as decimal point); with a ' it is feet (and inches after it). */
export function parseValueMeters(value: string): number | undefined {
  const m = /\d+\.?\d*/.exec(value.replace(/,/g, '.'));
  if (!m) return undefined;
  let n = Number(m[0]);
  const q = value.indexOf("'");
  if (q >= 0) {
    n *= 12;
    const inch = /\d+/.exec(value.slice(q));
    if (inch) n += Number(inch[0]);
    n *= INCH;
  }
  return n;
}

/** kg: "lbs" pounds, "kg" kilograms, otherwise tonnes. */
export function parseValueKilograms(value: string): number | undefined {
  const m = /\d+\.?\d*/.exec(value.replace(/,/g, '.'));
  if (!m) return undefined;
  const n = Number(m[0]);
  if (value.includes('lbs')) return n * 0.45359237;
  if (value.includes('kg')) return n;
  return n * 1000;
}

/** The wiki's default for maxheight=default|none|no-sign|unsigned (no location data here, as OSRM without a location file). */
const DEFAULT_MAXHEIGHT = 4.5;
const HEIGHT_NON_NUMERIC = new Set(['default', 'none', 'no-sign', 'unsigned']);

export function maxHeight(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  return HEIGHT_NON_NUMERIC.has(raw) ? DEFAULT_MAXHEIGHT : parseValueMeters(raw);
}
export const maxWidth = (raw: string | undefined) => (raw === undefined ? undefined : parseValueMeters(raw));
export const maxLength = maxWidth;
export const maxWeight = (raw: string | undefined) => (raw === undefined ? undefined : parseValueKilograms(raw));

/** Lua `tonumber(s:match("%d*"))`: the leading digits, or undefined. */
export function leadingNumber(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const m = /^\d+/.exec(s);
  return m ? Number(m[0]) : undefined;
}
