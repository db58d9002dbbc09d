// Pure pieces of the proof layer: delivery codes, photo URL rules, geometry, ping parsing.
import { describe, it, expect } from 'vitest';
import { newCode, parseCode, ALPHABET } from '../../src/api/logistics/delivery-code.ts';
import { checkPhotoUrl } from '../../src/api/logistics/photo-url.ts';
import { inPolygon } from '../../src/api/logistics/geo-math.ts';
import { haversine } from '../../src/core/geometry.ts';
import { parsePolygon } from '../../src/api/logistics/geofence.ts';
import { pingsOf, routes as trackingRoutes } from '../../src/api/logistics/tracking.ts';
import { compileRoutes, validateRequest } from '../../src/http/operation.ts';
import type { Req } from '../../src/http/types.ts';

/** A ping body through the declaration of POST /track/ping, then into pings. */
const ingestRoute = trackingRoutes.find((r) => r.method === 'POST')!;
compileRoutes([ingestRoute]);
function parsePings(body: unknown, now: number) {
  const req = { method: 'POST', path: '/track/ping', params: {}, query: new URLSearchParams(), headers: {}, body, q: {}, key: null } as Req;
  validateRequest(ingestRoute, req);
  return pingsOf(req.body, now);
}
import { HttpError } from '../../src/http/types.ts';

const err = (f: () => unknown) => {
  try { f(); } catch (e) { return e as HttpError; }
  throw new Error('expected a throw');
};

describe('delivery codes', () => {
  it('look like CC-XXXX-XXXX, avoid confusable characters and verify', () => {
    for (let i = 0; i < 500; i++) {
      const c = newCode(i % 2 ? 'NG' : null);
      expect(c).toMatch(/^(NG|ZZ)-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
      expect(c.slice(3)).not.toMatch(/[01ILO]/);
      expect(parseCode(c)).toEqual({ ok: true, code: c });
      expect(parseCode(c.toLowerCase().replace(/-/g, ' '))).toEqual({ ok: true, code: c });
    }
    expect(ALPHABET.length).toBe(31);
  });

  it('catch every single-character typo and every adjacent swap', () => {
    for (let n = 0; n < 50; n++) {
      const c = newCode('KE');
      const s = c.replace(/-/g, '');
      for (let i = 2; i < s.length; i++) {
        for (const ch of ALPHABET) {
          if (ch === s[i]) continue;
          const typo = s.slice(0, i) + ch + s.slice(i + 1);
          expect(parseCode(typo).ok, typo).toBe(false);
        }
        if (i + 1 < s.length && s[i] !== s[i + 1]) {
          const swap = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
          expect(parseCode(swap).ok, swap).toBe(false);
        }
      }
      // The wrong country fails the check too.
      expect(parseCode('GH' + s.slice(2)).ok).toBe(false);
    }
  });

  it('explain what is wrong', () => {
    expect(parseCode('NG-0000-0000')).toMatchObject({ ok: false, why: expect.stringMatching(/never use/) });
    expect(parseCode('NG-ABC')).toMatchObject({ ok: false, why: expect.stringMatching(/10 characters/) });
    expect(parseCode('US-2345-6789')).toMatchObject({ ok: false, why: expect.stringMatching(/country prefix/) });
  });
});

describe('photo_url', () => {
  it('accepts public https addresses', () => {
    expect(checkPhotoUrl('https://cdn.shop.example.com/pod/1.jpg')).toBe('https://cdn.shop.example.com/pod/1.jpg');
    expect(checkPhotoUrl('https://8.8.8.8/x.jpg')).toBe('https://8.8.8.8/x.jpg');
    expect(checkPhotoUrl('https://[2a00:1450::1]/x.jpg')).toBe('https://[2a00:1450::1]/x.jpg');
  });
  it.each([
    'http://cdn.shop.com/1.jpg', 'ftp://cdn.shop.com/1.jpg', 'file:///etc/passwd', 'javascript:alert(1)', 'data:image/png;base64,AAAA',
    'https://user:pw@cdn.shop.com/1.jpg', 'https://user@cdn.shop.com/1.jpg', 'https://localhost/1.jpg', 'https://LOCALHOST./1.jpg',
    'https://127.0.0.1/1.jpg', 'https://2130706433/1.jpg', 'https://0x7f.1/1.jpg', 'https://10.1.2.3/1.jpg', 'https://172.16.0.1/x',
    'https://192.168.1.1/x', 'https://169.254.169.254/latest/meta-data', 'https://100.64.0.1/x', 'https://0.0.0.0/x',
    'https://[::1]/x', 'https://[fe80::1]/x', 'https://[fd00::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://printer.local/x',
    'https://db.internal/x', 'https://intranet/x', 'not a url', 'https://',
  ])('rejects %s', (u) => {
    const e = err(() => checkPhotoUrl(u));
    expect(e).toBeInstanceOf(HttpError);
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/'photo_url'/);
  });
});

describe('geometry', () => {
  const square = [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]];
  it('point in polygon honours holes', () => {
    expect(inPolygon(1, 1, square)).toBe(true);
    expect(inPolygon(5, 5, square)).toBe(false); // in the hole
    expect(inPolygon(11, 5, square)).toBe(false);
    expect(inPolygon(5, 9.9, square)).toBe(true);
  });
  it('haversine: one degree of latitude is about 111.2 km', () => {
    expect(haversine(0, 0, 1, 0)).toBeGreaterThan(111_000);
    expect(haversine(0, 0, 1, 0)).toBeLessThan(111_400);
    expect(haversine(6.45, 3.39, 6.45, 3.39)).toBe(0);
  });
  it('polygons are validated with the failing field named', () => {
    const cases: [unknown, RegExp][] = [
      [null, /'polygon' must be an object/],
      [{ type: 'Point', coordinates: [1, 2] }, /'polygon.type'/],
      [{ type: 'Polygon', coordinates: [] }, /'polygon.coordinates'/],
      [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] }, /coordinates\[0\]' must hold at least 4/],
      [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, /must be closed/],
      [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 91], [0, 0]]] }, /coordinates\[0\]\[2\]' has a latitude/],
      [{ type: 'Polygon', coordinates: [[[0, 0], [181, 0], [1, 1], [0, 0]]] }, /longitude/],
      [{ type: 'Polygon', coordinates: [[[0, 0], ['1', 0], [1, 1], [0, 0]]] }, /longitude/],
      [{ type: 'Polygon', coordinates: [[[0, 0], [1, 1], [2, 2], [0, 0]]] }, /zero area/],
      [{ type: 'Polygon', coordinates: [Array.from({ length: 10_001 }, () => [0, 0])] }, /at most 10000/],
    ];
    for (const [v, re] of cases) {
      const e = err(() => parsePolygon(v));
      expect(e.status).toBe(400);
      expect(e.message).toMatch(re);
    }
    expect(parsePolygon({ type: 'Feature', geometry: { type: 'Polygon', coordinates: square } })).toHaveLength(2);
  });
});

describe('ping parsing', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('takes one ping or a batch with a shared device', () => {
    expect(parsePings({ device: 'v1', lat: 1, lng: 2, ts: '2026-06-01T11:00:00Z' }, now)).toHaveLength(1);
    const b = parsePings({ device: 'v1', pings: [{ lat: 1, lng: 2, ts: now - 1000 }, { device: 'v2', lat: 1, lng: 2, ts: now }] }, now);
    expect(b.map((p) => p.device)).toEqual(['v1', 'v2']);
  });
  it.each([
    [{ device: 'v1', lat: 91, lng: 0, ts: now }, /'lat'/],
    [{ device: 'v1', lat: 0, lng: -181, ts: now }, /'lng'/],
    [{ device: 'v1', lat: 'NaN', lng: 0, ts: now }, /'lat' must be a number/],
    [{ device: 'v1', lat: 0, lng: 0, ts: now + 10 * 60_000 }, /'ts' is more than 5 minutes in the future/],
    [{ device: 'v1', lat: 0, lng: 0, ts: Math.floor(now / 1000) }, /seconds/],
    [{ device: 'v1', lat: 0, lng: 0, ts: '2026-06-01 10:00' }, /'ts' must be an RFC 3339/],
    [{ device: 'v1', lat: 0, lng: 0, ts: now, speed_mps: 1e9 }, /'speed_mps'/],
    [{ device: 'v1', lat: 0, lng: 0, ts: now, heading_deg: -1 }, /'heading_deg'/],
    [{ device: 'bad device!', lat: 0, lng: 0, ts: now }, /'device'/],
    [{ lat: 0, lng: 0, ts: now }, /'device' is required/],
    [{ pings: [] }, /'pings' must hold at least 1/],
    [{ pings: Array.from({ length: 1001 }, () => ({ device: 'v', lat: 0, lng: 0, ts: now })) }, /at most 1000/],
    [{ pings: [{ device: 'v', lat: 0, lng: 0, ts: now }, { device: 'v', lat: 0, lng: { x: 1 }, ts: now }] }, /'pings\[1\].lng'/],
    [{ pings: [1] }, /'pings\[0\]' must be an object/],
    [[], /must be a JSON object/],
  ])('rejects %j', (body, re) => {
    const e = err(() => parsePings(body, now));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(re);
  });
});
