// Hotels: lodging (tourism=hotel, guest_house, hostel, motel, apartment, chalet) of the full-tag
// OpenStreetMap extracts an operator builds with `npm run graph-build -- pois`, with what OSM tags
// say about each (stars, rooms, phone, website, check-in and check-out). GET /hotels is the
// capability's own route; /places/search, /places/nearby (category lodging or a lodging type) and
// /places/{id} (svc:poi.…) answer from the same task (geo.ts). The default data has no POIs, so
// the capability is off there with the reason.
import { HttpError, type AppContext, type RouteDef, route } from '../http/types.ts';
import { Q, type Schema } from '../http/declaration.ts';
import { LODGING_CATEGORIES } from '../core/format/pois.ts';
import { PLACES_LIMITS } from './places-osm.ts';

/** Every category name that means lodging on the places endpoints: the group and each tourism value. */
export const LODGING_NAMES: readonly string[] = ['lodging', ...LODGING_CATEGORIES];
export const isLodging = (category: string | undefined) => category !== undefined && LODGING_NAMES.includes(category);

export const hotelsReady = (ctx: AppContext) =>
  ctx.pool.has('hotels_search') && ctx.pool.hasDataset('pois', (d) => Number(d.manifest.lodging ?? 0) > 0);
const BUILD = 'npm run graph-build -- pois --input country.osm.pbf';

const nstr = { type: ['string', 'null'] }, nnum = { type: ['number', 'null'] };
/** The lodging fields of a place (null where OSM does not tag them). */
export const lodgingSchema: Schema = {
  type: 'object', required: ['stars', 'rooms', 'phone', 'website', 'check_in', 'check_out'],
  properties: {
    stars: nnum, stars_tag: nstr, rooms: nnum, beds: nnum, phone: nstr, website: nstr, email: nstr,
    check_in: nstr, check_out: nstr, internet_access: nstr,
  },
};
const hotel: Schema = {
  type: 'object', required: ['id', 'name', 'category', 'lat', 'lng', 'lodging'],
  properties: {
    id: { type: 'string' }, name: nstr, category: { enum: [...LODGING_CATEGORIES] }, type: { type: 'string' }, lat: { type: 'number' }, lng: { type: 'number' },
    address: nstr, osm: { type: 'object' }, tags: { type: 'object' }, lodging: lodgingSchema, distance_m: { type: 'number' },
  },
};

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/hotels', scope: 'geo',
    capabilities: ['hotels'],
    ready: hotelsReady,
    note: `GET /api/v1/hotels?q&category&min_stars&lat&lng&radius: lodging (tourism=${LODGING_CATEGORIES.join('|')}) of the loaded full-tag OpenStreetMap extracts with stars, rooms, phone, website, check-in/out where tagged; also category=lodging (or a lodging type) on /places/search and /places/nearby, and /places/{svc:poi.…} by id.`,
    offNote: () => `No lodging data is loaded: the default African road extracts carry no POIs. An operator builds them from a full-tag OpenStreetMap extract: \`${BUILD}\`, then reload.`,
    decl: {
      summary: 'Hotels, guest houses, hostels, motels and apartments from OpenStreetMap', tag: 'geo',
      description: 'By name (every word a prefix of a name word), by distance (lat/lng and radius), or both; nearest first with a point. `lodging` holds what OSM tags say: stars (a number; `stars_tag` keeps the text, e.g. "4S"), rooms, beds, phone, website, email, check_in, check_out; null where not tagged.',
      query: {
        q: { schema: Q.str({ maxLength: 200 }), aliases: ['query', 'keyword'], description: 'Name words' },
        category: { schema: Q.enum(LODGING_NAMES), aliases: ['type'], description: `lodging (all, the default) or one of ${LODGING_CATEGORIES.join(', ')}` },
        min_stars: { schema: Q.num({ min: 0, max: 7 }), description: 'Only places tagged with at least this many stars' },
        lat: { schema: Q.num({ min: -90, max: 90 }), description: 'Latitude' },
        lng: { schema: Q.num({ min: -180, max: 180 }), aliases: ['lon'], description: 'Longitude' },
        radius: { schema: Q.num({ min: 1, max: PLACES_LIMITS.radius.max, default: PLACES_LIMITS.radius.default }), description: 'Metres around lat/lng' },
        limit: { schema: Q.int({ min: 1, max: PLACES_LIMITS.limit.max, default: PLACES_LIMITS.limit.default }) },
      },
      pairAliases: { location: ['lat', 'lng'] },
      responses: {
        200: { description: 'Lodging, nearest first with a point, else best name match', schema: { type: 'object', required: ['results'], properties: { results: { type: 'array', items: hotel }, sandbox: { type: 'boolean' } } } },
        400: { description: 'Invalid parameter' }, 503: { description: 'No lodging data loaded' },
      },
      examples: [{ query: 'lat=43.7384&lng=7.4246&radius=3000', summary: 'needs a POI build, e.g. of Monaco' }, { query: 'q=hermitage' }, { query: 'min_stars=4' }],
    },
    async handler(req, ctx) {
      const { q, category, min_stars, lat, lng, radius, limit } = req.q;
      if ((lat === undefined) !== (lng === undefined)) throw new HttpError(400, 'missing_parameter', `Parameter '${lat === undefined ? 'lat' : 'lng'}' is required (lat and lng go together).`);
      return { task: await ctx.pool.run('hotels_search', { q, category, min_stars, lat, lng, radius, limit }, !!req.key?.test) };
    },
  }),
];
