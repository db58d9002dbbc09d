// /compat/alt/placedetails: one place by its stable id, in the platform's Place Details shape.
import { Q } from '../../../http/declaration.ts';
import { ATTRIBUTION } from '../../../core/attribution.ts';
import { altRoute } from './define.ts';
import { answer, notFound } from './envelope.ts';
import { task, ok } from './tasks.ts';
import { addressComponents, placeTypes, viewport, vicinity } from './shapes.ts';
import { PLACE_ID } from './places.ts';
import { envelope, placeResult } from './schemas.ts';

/** Place Details result from our detail record. */
export function placeDetail(d: any): Record<string, unknown> {
  return {
    address_components: addressComponents(d),
    formatted_address: d.address,
    geometry: { location: { lat: d.lat, lng: d.lng }, viewport: viewport(d.lat, d.lng, d.type) },
    name: d.name,
    place_id: d.id,
    types: placeTypes(d.type),
    vicinity: vicinity(d),
  };
}

export const placedetails = altRoute({
  name: 'placedetails',
  scope: 'geo',
  ops: ['place_by_id'],
  datasets: ['gazetteer'],
  empty: { html_attributions: [] },
  decl: {
    summary: 'Place Details in the alt platform shape, by our place_id (svc:…)',
    description: '`fields` (comma-separated) keeps only those top-level fields of the result, as on the platform. `language` and `sessiontoken` are accepted. Our full record (sources, licences, population, source fields) is under `svc.result`.',
    query: {
      place_id: { schema: Q.str({ pattern: PLACE_ID.source }), required: true, description: 'Our place id, e.g. svc:gn.184745' },
      fields: { schema: Q.str({ maxLength: 500 }), description: 'Comma-separated fields to return (address_components, formatted_address, geometry, name, place_id, types, vicinity)' },
      language: { schema: Q.str({ maxLength: 20 }), description: 'Accepted; names are returned as in the data' },
      sessiontoken: { schema: Q.str({ maxLength: 200 }), description: 'Accepted (autocomplete sessions are not billed here)' },
    },
    responses: {
      200: { description: 'OK', schema: envelope(['result', 'html_attributions'], { result: placeResult, html_attributions: { type: 'array', items: { type: 'string' } } }) },
      400: { description: 'INVALID_REQUEST' },
      404: { description: 'NOT_FOUND: no place with this id' },
    },
    examples: [{ query: 'place_id=svc:gn.184745', summary: 'Nairobi' }],
  },
  async handler(req, ctx) {
    const r = await task(ctx, req, 'place_by_id', { id: req.q.place_id });
    if (r.status === 404) throw notFound(`No place with place_id '${req.q.place_id}'.`);
    const d = ok(r, 'place_by_id').result;
    let result = placeDetail(d);
    if (req.q.fields) {
      const keep = new Set(String(req.q.fields).split(',').map((f) => f.trim().split('/')[0]).filter(Boolean));
      result = Object.fromEntries(Object.entries(result).filter(([k]) => keep.has(k)));
    }
    return answer('OK', { html_attributions: [ATTRIBUTION], result }, { result: d });
  },
});
