// `npm run graph-build -- pois --input country.osm.pbf [--name pois-country] [--out data/built]`: builds the
// places (businesses, markets, protected areas) of a full-tag OpenStreetMap extract (.osm.pbf or .osm XML).
import { parseArgs } from 'node:util';
import { resolve, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPois } from './index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const USAGE = `usage: npm run graph-build -- pois --input <full extract .osm.pbf|.osm> [--name pois-<extract>] [--out data/built]
Reads shop/office/craft/commercial amenity businesses, lodging (tourism=hotel|guest_house|hostel|motel|apartment|chalet,
with stars, rooms, beds, phone, website, check_in, check_out: GET /hotels), amenity=marketplace markets (nodes, ways, areas) and
boundary=protected_area / boundary=national_park / leisure=nature_reserve areas (closed ways and multipolygon relations).`;

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { input: { type: 'string' }, name: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) { console.log(USAGE); return; }
  if (!values.input) throw new Error(`--input is required\n${USAGE}`);
  const name = values.name ?? `pois-${basename(values.input).replace(/\.(osm\.pbf|pbf|osm|xml)$/i, '').replace(/[^a-z0-9_-]+/gi, '-').toLowerCase()}`;
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) throw new Error(`--name must be letters, digits, '-' or '_' (got '${name}')`);
  await buildPois({ input: resolve(values.input), name, out: resolve(values.out ?? resolve(ROOT, 'data/built')), progress: true });
}
