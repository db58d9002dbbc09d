// The import graph of the repository's own TypeScript: every relative `import … from`,
// `export … from` and `import('…')` of each .ts file under the given folders, type-only ones
// included (a type cycle still ties two modules' meaning together and turns into a load-order
// cycle the day one side imports a value).
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) { if (name !== 'node_modules') tsFiles(p, out); } else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const SPEC = /(?:^|[\s;}])(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** file (relative to root) → the files it imports (relative to root), within `dirs` only. */
export function importGraph(root: string, dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((d) => tsFiles(join(root, d)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    // comments out first, so a commented import or an example in a doc comment is no edge
    const text = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
    const deps = new Set<string>();
    for (const m of text.matchAll(SPEC)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(f), spec);
      if (known.has(target)) deps.add(relative(root, target));
      else if (existsSync(target + '.ts')) deps.add(relative(root, target + '.ts'));
    }
    graph.set(relative(root, f), [...deps].sort());
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself): each is a cycle. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>(), low = new Map<string, number>(), on = new Set<string>(), stack: string[] = [], out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}
