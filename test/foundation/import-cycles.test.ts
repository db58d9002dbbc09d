// No import cycles: every relative import (type-only ones included) of src/, workers/ and
// graph-build/ forms a graph without a cycle, so each module can be read, tested and changed
// knowing only what it imports. Cycles are strongly connected components of that graph.
import { describe, it, expect } from 'vitest';
import { REPO } from '../helpers/paths.ts';
import { importGraph, cycles } from '../helpers/imports.ts';

const graph = importGraph(REPO, ['src', 'workers', 'graph-build']);
const found = cycles(graph);
const inside = (dir: string) => found.filter((c) => c.some((f) => f.startsWith(`${dir}/`)));
const show = (cs: string[][]) => cs.map((c) => c.join(' ↔ ')).join('\n');

describe('import cycles', () => {
  it('reads the import graph (every file, its imports)', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('workers/routing/index.ts')).toContain('workers/routing/search/solve.ts');
  });

  it('finds a cycle when there is one', () => {
    const g = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });

  it('workers/ has none', () => {
    expect(show(inside('workers'))).toBe('');
  });

  it('graph-build/ has none', () => {
    expect(show(inside('graph-build'))).toBe('');
  });

  it('src/ has none', () => {
    expect(show(inside('src'))).toBe('');
  });
});
