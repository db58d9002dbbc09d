-- Geofence zones carry their vertex count, so a project's total (its vertex budget) is one
-- sum over its rows. Zones stored before this column count as 0 until rewritten.
ALTER TABLE zones ADD COLUMN vertices integer NOT NULL DEFAULT 0;
