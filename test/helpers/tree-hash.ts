// Shared test builds are cached under a hash of the code that makes them: every .ts file below
// the given folders (path and contents), so a change to any of them rebuilds the cache.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Hash } from 'node:crypto';

export function hashTrees(h: Hash, root: string, dirs: string[]): Hash {
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.ts')) h.update(p).update(readFileSync(p));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return h;
}
