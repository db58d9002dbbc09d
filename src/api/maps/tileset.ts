// The loaded tile set as the HTTP layer serves it: the PMTiles archive (already in memory,
// shared with the workers), its glyph ranges and sprites (read once, kept), and the
// styles per theme and key. Cached per loaded dataset, so a reload serves the new set.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { AppContext } from '../../http/types.ts';
import type { Dataset } from '../../core/task.ts';
import { PmArchive } from '../../core/maps/pmtiles.ts';
import { wholeFile } from '../../core/format/index.ts';
import { buildStyle, type Theme } from '../../core/maps/style.ts';

export class TileSet {
  readonly archive: PmArchive;
  /** Changes with every build: part of every ETag. */
  readonly version: string;
  readonly builtAt: string;
  private files = new Map<string, Uint8Array | null>();
  private styles = new Map<string, Uint8Array>();

  constructor(readonly ds: Dataset) {
    this.archive = new PmArchive(wholeFile(ds.files['tiles.pmtiles'], `${ds.dir}/tiles.pmtiles`));
    this.builtAt = String(ds.manifest.built_at);
    this.version = createHash('sha1').update(`${ds.dir}|${this.builtAt}`).digest('hex').slice(0, 10);
  }

  /** Union of the road extracts' boxes: where detail tiles (z9–14) exist. */
  get detailBounds(): [number, number, number, number] | undefined {
    const boxes = (this.ds.manifest.extract_bounds ?? []) as [number, number, number, number][];
    if (!boxes.length) return undefined;
    return [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
  }

  /** A built file below the dataset folder (glyphs/…, sprites/…), or null. */
  file(rel: string): Uint8Array | null {
    if (this.files.has(rel)) return this.files.get(rel)!;
    const p = join(this.ds.dir, rel);
    const b = existsSync(p) ? new Uint8Array(readFileSync(p)) : null;
    if (this.files.size < 512) this.files.set(rel, b);
    return b;
  }

  style(tilesUrl: string, theme: Theme, key: string | undefined): Uint8Array {
    const k = `${theme}|${key ?? ''}`;
    let s = this.styles.get(k);
    if (!s) {
      s = new TextEncoder().encode(JSON.stringify(buildStyle({ tilesUrl, theme, key, bounds: this.detailBounds })));
      if (this.styles.size > 1000) this.styles.clear();
      this.styles.set(k, s);
    }
    return s;
  }
}

const sets = new WeakMap<Dataset, TileSet>();

/** The tile set loaded in the worker pool, or null when none is built. */
export function tileSet(ctx: AppContext): TileSet | null {
  const ds = ctx.pool.datasets.find((d) => d.dataset === 'tiles');
  if (!ds) return null;
  let t = sets.get(ds);
  if (!t) sets.set(ds, (t = new TileSet(ds)));
  return t;
}
