// The encoded polyline algorithm (precision 5), as the alt platform's `enc:` paths use it.
export function decodePolyline(s: string, precision = 5): [number, number][] {
  const f = 10 ** precision, out: [number, number][] = [];
  let i = 0, lat = 0, lng = 0;
  const next = (): number => {
    let shift = 0, result = 0, b: number;
    do {
      if (i >= s.length) throw new Error('truncated polyline');
      b = s.charCodeAt(i++) - 63;
      if (b < 0 || b > 63) throw new Error('invalid polyline character');
      result |= (b & 0x1f) << shift; shift += 5;
    } while (b >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (i < s.length) {
    lat += next(); lng += next();
    out.push([lat / f, lng / f]);
  }
  return out;
}

export function encodePolyline(points: [number, number][], precision = 5): string {
  const f = 10 ** precision;
  let out = '', plat = 0, plng = 0;
  const put = (v: number) => {
    v = v < 0 ? ~(v << 1) : v << 1;
    while (v >= 0x20) { out += String.fromCharCode((0x20 | (v & 0x1f)) + 63); v >>= 5; }
    out += String.fromCharCode(v + 63);
  };
  for (const [lat, lng] of points) {
    const a = Math.round(lat * f), b = Math.round(lng * f);
    put(a - plat); put(b - plng);
    plat = a; plng = b;
  }
  return out;
}
