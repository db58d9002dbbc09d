// Builds the real tile set once per test file into a temp folder (≈12 s on the real data).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildTiles } from '../../graph-build/tiles/index.ts';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const SHARED_DATA = resolve(REPO, '..', 'shared', 'data');

/** Web-mercator tile of a point. */
export function tileOf(lat: number, lng: number, z: number): [number, number] {
  const n = 2 ** z, r = (lat * Math.PI) / 180;
  return [Math.floor(((lng + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)];
}

export async function buildTestTiles(builtDir = join(mkdtempSync(join(tmpdir(), 'svc-maps-')), 'built'), maxZoom?: number) {
  const s = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8'));
  const r = await buildTiles({ sharedDataDir: SHARED_DATA, out: builtDir, sources: { ...s.gazetteer, ...s.tiles }, roads: s.roads, progress: false, maxZoom });
  return { builtDir, ...r };
}
