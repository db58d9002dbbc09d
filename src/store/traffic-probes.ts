// Probe traces contributed for traffic (table traffic_probes), stored as received, one row per trace.
import type { Store } from './store.ts';

export async function insertProbeTraces(store: Store, project: string, traces: { trace_id: string; points: unknown }[]): Promise<void> {
  await store.pool.query(
    `INSERT INTO traffic_probes (project_id, trace_id, points)
       SELECT $1, t, p::jsonb FROM unnest($2::text[], $3::text[]) AS x(t, p)`,
    [project, traces.map((t) => t.trace_id), traces.map((t) => JSON.stringify(t.points))],
  );
}
