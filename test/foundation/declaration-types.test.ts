// Handlers read req.q and req.body typed from their declarations (QueryOf, BodyOf): these checks
// run in `tsc --noEmit` (CI's first step), so a builder or a rule that loses a type fails the build.
import { describe, it, expectTypeOf } from 'vitest';
import { B, F, Q, type BodyOf, type ParamsOf, type QueryOf } from '../../src/http/declaration.ts';
import type { NEAREST, ROUTE, TABLE } from '../../src/api/osrm/options.ts';
import { route, type Req } from '../../src/http/types.ts';
import { POINT } from '../../src/core/points.ts';

/** One object type out of an intersection, so types compare by their members. */
type Flat<T> = T extends unknown[] ? T : { [K in keyof T]: T[K] };

describe('declared types', () => {
  it('a query parameter is present when required or defaulted, else possibly undefined', () => {
    const query = {
      from: { schema: Q.latlng(), required: true as const },
      via: { schema: Q.latlngList(25) },
      radius: { schema: Q.int({ min: 1, default: 1000 }) },
      steps: { schema: Q.bool(false) },
      mode: { schema: Q.enum(['driving', 'walk'], 'driving') },
      depart_at: { schema: Q.str({ maxLength: 40 }) },
    };
    expectTypeOf<QueryOf<typeof query>>().toEqualTypeOf<{
      from: [number, number]; via: [number, number][] | undefined; radius: number; steps: boolean; mode: 'driving' | 'walk'; depart_at: string | undefined;
    }>();
  });

  it('a body built with B or written as a literal schema has the type it validates', () => {
    const body = B.obj({ name: B.text(80), lat: B.num(), tags: B.arr(B.text(20), { max: 5 }) }, ['name']);
    expectTypeOf<Flat<BodyOf<typeof body>>>().toEqualTypeOf<{ name: string; lat?: number; tags?: string[] }>();
    expectTypeOf<Flat<BodyOf<typeof POINT>>>().toEqualTypeOf<{ lat: number; lng: number } | number[]>();
  });

  it('route() hands the handler the declared types', () => {
    route({
      method: 'GET', path: '/t', scope: null,
      decl: { summary: 't', query: { n: { schema: Q.int(), required: true } }, responses: {}, examples: [] },
      handler(req) {
        expectTypeOf(req).toEqualTypeOf<Req<{ n: number }, undefined>>();
        return { json: {} };
      },
    });
  });

  it('path segments, form fields and choices have the types their declarations give', () => {
    expectTypeOf<ParamsOf<{ profile: { schema: ReturnType<typeof Q.str> }; coordinates: { schema: ReturnType<typeof Q.str> } }>>().toEqualTypeOf<{ profile: string; coordinates: string }>();
    const login = F.form({ email: F.field(), password: F.field({ verbatim: true }) });
    expectTypeOf<Flat<BodyOf<typeof login>>>().toEqualTypeOf<{ email?: string | string[]; password?: string | string[] }>();
    type Route = QueryOf<typeof ROUTE>;
    expectTypeOf<Route['alternatives']>().toEqualTypeOf<number | boolean | undefined>();
    expectTypeOf<Route['steps']>().toEqualTypeOf<boolean>();
    expectTypeOf<Route['radiuses']>().toEqualTypeOf<(number | 'unlimited' | null)[] | undefined>();
    expectTypeOf<QueryOf<typeof TABLE>['sources']>().toEqualTypeOf<'all' | number[] | undefined>();
    expectTypeOf<QueryOf<typeof NEAREST>['number']>().toEqualTypeOf<number>();
  });
});
