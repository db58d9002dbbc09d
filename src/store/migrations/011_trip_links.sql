-- Shareable trip-tracking links (src/api/ride/trip-links.ts): one device's live position, shown to
-- whoever holds the signed link until it expires or is revoked (DELETE, or the proof of delivery of
-- the stop it was made for). The token itself is never stored: it is the id, the expiry and an
-- HMAC of them, checked against this row.
CREATE TABLE trip_links (
  id             text PRIMARY KEY,
  project_id     text NOT NULL,
  sandbox        boolean NOT NULL,
  -- the key that made it: the map page's tiles count against its plan
  key_id         text NOT NULL,
  plan           text NOT NULL,
  device         text NOT NULL,
  stop_id        text,
  label          text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  revoked_at     timestamptz,
  revoked_reason text
);
CREATE INDEX trip_links_by_stop ON trip_links (project_id, sandbox, stop_id) WHERE stop_id IS NOT NULL AND revoked_at IS NULL;
CREATE INDEX trip_links_by_project ON trip_links (project_id, sandbox, created_at);
