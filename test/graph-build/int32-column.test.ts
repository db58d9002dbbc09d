import { describe, it, expect } from 'vitest';
import { Int32Column } from '../../graph-build/int32-column.ts';

describe('Int32Column', () => {
  it('keeps every entry in order across growth and hands back exactly its length', () => {
    const c = new Int32Column(16);
    for (let i = 0; i < 1000; i++) c.push(i * 7 - 3000);
    const a = c.take();
    expect(a).toBeInstanceOf(Int32Array);
    expect(a.length).toBe(1000);
    expect(c.length).toBe(1000);
    for (let i = 0; i < 1000; i++) expect(a[i]).toBe(i * 7 - 3000);
  });

  it('truncates as Int32Array.from does', () => {
    const c = new Int32Column();
    for (const x of [1.9, -1.9, 2 ** 31, 5]) c.push(x);
    expect([...c.take()]).toEqual([...Int32Array.from([1.9, -1.9, 2 ** 31, 5])]);
    expect(new Int32Column().take().length).toBe(0);
  });
});
