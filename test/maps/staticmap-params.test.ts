// Static-map path parameters: an encoded polyline may contain '|' (one of its 64 characters),
// so `enc:` must take the rest of the value rather than be split with the styles.
import { describe, it, expect } from 'vitest';
import { parsePaths } from '../../src/api/maps/staticmap-params.ts';
import { encodePolyline, decodePolyline } from '../../src/core/maps/polyline.ts';

describe('static map paths', () => {
  // A short line in Accra whose encoding contains '|' (the middle point was chosen so that it does).
  const line: [number, number][] = [[5.6037, -0.187], [5.60551, -0.1887], [5.6052, -0.1891]];
  const enc = encodePolyline(line);

  it('reads an enc: polyline containing | whole, after its styles', () => {
    expect(enc).toContain('|');
    const [p] = parsePaths([`color:0xff0000ff|weight:4|enc:${enc}`]);
    expect(p.color).toBeDefined();
    expect(p.weight).toBe(4);
    expect(p.points).toEqual(decodePolyline(enc));
    expect(p.points).toHaveLength(3);
  });

  it('reads a bare enc: value and plain points as before', () => {
    expect(parsePaths([`enc:${enc}`])[0].points).toHaveLength(3);
    expect(parsePaths(['weight:2|5.6,-0.18|5.61,-0.19'])[0].points).toHaveLength(2);
  });
});
