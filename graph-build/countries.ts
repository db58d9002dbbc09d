// The countries built into a data folder by `graph-build -- country`, kept in <out>/countries.json.
// The gazetteer and the tile set are one dataset each for everything served, so every rebuild of
// them (the next country, or `npm start` after a format change) must read every country's
// extract again; without this list a second country would silently drop the first one's streets,
// addresses and boundaries.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BuiltCountry { name: string; input: string; built_at: string }

const FILE = 'countries.json';

export function readBuiltCountries(out: string): BuiltCountry[] {
  const file = join(out, FILE);
  if (!existsSync(file)) return [];
  const j = JSON.parse(readFileSync(file, 'utf8')) as { countries?: BuiltCountry[] };
  if (!Array.isArray(j.countries)) throw new Error(`${file}: expected {"countries": [...]}`);
  return j.countries;
}

/** Add or replace one country (by name) and return the whole list; written whole, then renamed, so a crash leaves the old list. */
export function recordCountry(out: string, c: { name: string; input: string }): BuiltCountry[] {
  const list = readBuiltCountries(out).filter((x) => x.name !== c.name);
  list.push({ name: c.name, input: c.input, built_at: new Date().toISOString() });
  list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const file = join(out, FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify({ countries: list }, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
  return list;
}

/** The road extracts whose streets the gazetteer and tiles read: the defaults, then each built country (a country replaces a default of its name). */
export function roadSources(defaults: { name: string; input: string }[], countries: BuiltCountry[]): { name: string; input: string }[] {
  const names = new Set(countries.map((c) => c.name));
  return [...defaults.filter((r) => !names.has(r.name)), ...countries.map((c) => ({ name: c.name, input: c.input }))];
}
