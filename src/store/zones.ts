// Geofence zones (table zones): polygons with their bounding boxes, capped per project.
import type { Db, Tenant } from './db.ts';

const ZONE_COLS = 'id, name, polygon, min_lat, min_lng, max_lat, max_lng, created_at';
/** Positions held by a project's zones, summed in SQL over every ring. */
const POSITIONS = `coalesce(sum((SELECT coalesce(sum(jsonb_array_length(r)), 0) FROM jsonb_array_elements(polygon->'coordinates') AS r)), 0)`;

export interface NewZone {
  id: string; name: string; polygon: unknown; minLat: number; minLng: number; maxLat: number; maxLng: number;
  /** positions of this polygon, and the project's caps on zones and positions */
  vertices: number; maxZones: number; vertexBudget: number;
}

/**
 * Inserts the zone unless the project would exceed a cap; the count and the insert are one
 * statement, so concurrent creates cannot overshoot by much. Null when a cap refused it.
 */
export async function insertZone(q: Db, o: Tenant, z: NewZone): Promise<any | null> {
  const r = await q.query(
    `INSERT INTO zones (project_id, sandbox, id, name, polygon, min_lat, min_lng, max_lat, max_lng)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
     FROM (SELECT count(*) AS n, ${POSITIONS} AS v FROM zones WHERE project_id = $1 AND sandbox = $2) AS used
     WHERE used.n < $10::int AND used.v + $11::int <= $12::bigint
     RETURNING ${ZONE_COLS}`,
    [o.project, o.sandbox, z.id, z.name, JSON.stringify(z.polygon), z.minLat, z.minLng, z.maxLat, z.maxLng, z.maxZones, z.vertices, z.vertexBudget],
  );
  return r.rows[0] ?? null;
}

/** How many zones and polygon positions the project holds. */
export async function zoneUsage(q: Db, o: Tenant): Promise<{ n: number; v: number }> {
  const u = await q.query(`SELECT count(*)::int AS n, ${POSITIONS}::int AS v FROM zones WHERE project_id = $1 AND sandbox = $2`, [o.project, o.sandbox]);
  return u.rows[0];
}

/** A page of zones, oldest first, after the (created_at text, id) cursor; each row carries `at` for the next cursor. */
export async function zonesPage(q: Db, o: Tenant, after: [string, string] | null, limit: number): Promise<any[]> {
  const r = await q.query(
    `SELECT ${ZONE_COLS}, created_at::text AS at FROM zones
     WHERE project_id = $1 AND sandbox = $2 AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4))
     ORDER BY created_at, id LIMIT $5`,
    [o.project, o.sandbox, after?.[0] ?? null, after?.[1] ?? '', limit],
  );
  return r.rows;
}

export async function zoneById(q: Db, o: Tenant, id: string): Promise<any | undefined> {
  const r = await q.query(`SELECT ${ZONE_COLS} FROM zones WHERE project_id = $1 AND sandbox = $2 AND id = $3`, [o.project, o.sandbox, id]);
  return r.rows[0];
}

/** Deletes a zone; false when there was none. */
export async function deleteZone(q: Db, o: Tenant, id: string): Promise<boolean> {
  const r = await q.query('DELETE FROM zones WHERE project_id = $1 AND sandbox = $2 AND id = $3 RETURNING id', [o.project, o.sandbox, id]);
  return !!r.rows[0];
}

/** A version of the project's zone set that changes whenever a zone is added or removed. */
export async function zonesVersion(q: Db, o: Tenant): Promise<string> {
  const v = await q.query(
    'SELECT count(*)::int AS n, max(created_at)::text AS at FROM zones WHERE project_id = $1 AND sandbox = $2',
    [o.project, o.sandbox]);
  return `${v.rows[0].n}|${v.rows[0].at}`;
}

/** Every zone of the project, oldest first (for the containment index). */
export async function allZones(q: Db, o: Tenant): Promise<any[]> {
  const r = await q.query(
    'SELECT id, name, polygon, min_lat, min_lng, max_lat, max_lng FROM zones WHERE project_id = $1 AND sandbox = $2 ORDER BY created_at, id',
    [o.project, o.sandbox]);
  return r.rows;
}
