-- Geofence zones carry their vertex count, so a project's total (its vertex budget) is one
-- sum over its rows, and a check can tell whether its cached zone index is current.
ALTER TABLE zones ADD COLUMN vertices integer NOT NULL DEFAULT 0;
UPDATE zones SET vertices = (
  SELECT coalesce(sum(jsonb_array_length(r)), 0)::int FROM jsonb_array_elements(polygon->'coordinates') AS r
);
