// An empty glyph range (a fontstack with no glyphs): the answer for ranges the build did not
// draw, so MapLibre renders what it has instead of logging a failed request.
export function encodeEmptyGlyphs(name: string, range: string): Uint8Array {
  const enc = new TextEncoder();
  const n = enc.encode(name), r = enc.encode(range);
  const inner = [0x0a, ...varint(n.length), ...n, 0x12, ...varint(r.length), ...r];
  return Uint8Array.from([0x0a, ...varint(inner.length), ...inner]);
}

function varint(v: number): number[] {
  const out: number[] = [];
  while (v >= 0x80) { out.push((v & 0x7f) | 0x80); v >>>= 7; }
  out.push(v);
  return out;
}
