// The route answer's coordinate text is written by hand from the stored E7 integers
// (workers/routing/answers/coords.ts): it must parse to exactly the doubles x / 1e7, and read as
// JSON.stringify would write them.
import { describe, it, expect } from 'vitest';
import { JsonCoordSink, ArraySink } from '../../workers/routing/answers/coords.ts';
import { rng } from '../../bench/lib/rand.ts';

describe('JSON coordinate text', () => {
  it('equals JSON.stringify of x / 1e7 over random and edge-case E7 integers', () => {
    const r = rng(42);
    const xs = [0, 1, -1, 9, 10, -10, 99, 1e7, -1e7, 1e7 + 1, 123456789, -123456789, 1799999999, -1799999999, 900000000, -900000000, 5000000, 10000000, 10000010];
    for (let i = 0; i < 20000; i++) xs.push(Math.floor((r() * 2 - 1) * 1.8e9));
    for (let i = 0; i < 2000; i++) xs.push(Math.floor((r() * 2 - 1) * 1e4)); // near zero
    const text = new JsonCoordSink(), arr = new ArraySink();
    for (let i = 0; i + 1 < xs.length; i += 2) { text.add(xs[i], xs[i + 1]); arr.add(xs[i], xs[i + 1]); }
    const t = text.text();
    expect(JSON.parse(t)).toEqual(arr.coords); // the same doubles, bit for bit
    // Same text too, except V8 writes |x| < 1e-6 with an exponent (1e-7) where we write 0.0000001.
    const big = new JsonCoordSink(), bigArr = new ArraySink();
    for (let i = 0; i + 1 < xs.length; i += 2) if (Math.abs(xs[i]) >= 10 && Math.abs(xs[i + 1]) >= 10) { big.add(xs[i], xs[i + 1]); bigArr.add(xs[i], xs[i + 1]); }
    expect(big.text()).toBe(JSON.stringify(bigArr.coords));
  });

  it('drops consecutive duplicates and writes an empty array when given nothing', () => {
    expect(new JsonCoordSink().text()).toBe('[]');
    const s = new JsonCoordSink();
    s.add(327664335, -56333499); s.add(327664335, -56333499); s.add(327662687, -56325879);
    expect(s.text()).toBe('[[32.7664335,-5.6333499],[32.7662687,-5.6325879]]');
  });

  it('grows past its scratch buffer', () => {
    const s = new JsonCoordSink(), a = new ArraySink();
    for (let i = 0; i < 10000; i++) { s.add(327664335 + i, -56333499 - i); a.add(327664335 + i, -56333499 - i); }
    expect(s.text()).toBe(JSON.stringify(a.coords));
  });
});
