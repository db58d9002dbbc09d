-- The proof layer (issue 5): stops and their pin confirmations, GPS pings and the
-- per-device last position, proof of delivery, disputes, trip outcomes and geofence zones.
--
-- Every table is keyed by (project_id, sandbox, …): project_id is the project of the key
-- that wrote the row, sandbox is true for svc_test_ keys. Every query filters on both,
-- so a test key never sees live rows, and no key sees another project's rows.
-- project_id is not a foreign key to projects: a key always names an existing project,
-- and the ingest path should not pay for a lookup per row.

CREATE TABLE stops (
  project_id    text NOT NULL,
  sandbox       boolean NOT NULL,
  id            text NOT NULL,
  external_ref  text,
  address       text,
  country_code  text,
  delivery_code text NOT NULL,
  -- the pin as given when the stop was created
  created_lat   double precision NOT NULL,
  created_lng   double precision NOT NULL,
  -- the latest confirmed pin (null until POST /stops/confirm)
  pin_confirmed boolean NOT NULL DEFAULT false,
  pin_lat       double precision,
  pin_lng       double precision,
  pin_accuracy_m double precision,
  pin_confirmed_at timestamptz,
  pin_confirmed_by text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, id)
);
CREATE UNIQUE INDEX stops_external_ref ON stops (project_id, sandbox, external_ref) WHERE external_ref IS NOT NULL;
CREATE UNIQUE INDEX stops_delivery_code ON stops (project_id, sandbox, delivery_code);

-- Every confirmation ever made: pins are never overwritten without a trace.
CREATE TABLE stop_confirmations (
  project_id   text NOT NULL,
  sandbox      boolean NOT NULL,
  stop_id      text NOT NULL,
  seq          integer NOT NULL,
  lat          double precision NOT NULL,
  lng          double precision NOT NULL,
  accuracy_m   double precision,
  confirmed_by text,
  confirmed_at timestamptz NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, stop_id, seq),
  FOREIGN KEY (project_id, sandbox, stop_id) REFERENCES stops (project_id, sandbox, id) ON DELETE CASCADE
);

-- GPS pings. The primary key is the idempotency key: a retried ping is a no-op.
CREATE TABLE pings (
  project_id  text NOT NULL,
  sandbox     boolean NOT NULL,
  device      text NOT NULL,
  ts          timestamptz NOT NULL,
  lat         double precision NOT NULL,
  lng         double precision NOT NULL,
  speed_mps   real,
  heading_deg real,
  accuracy_m  real,
  -- The ping as the API shows it, rendered once at ingest: a 10,000-point trail read
  -- then copies text instead of formatting 60,000 numbers and 10,000 timestamps.
  j           text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, device, ts)
);

-- Last known position per device (for /fleet/vehicles without scanning every ping).
CREATE TABLE devices (
  project_id  text NOT NULL,
  sandbox     boolean NOT NULL,
  device      text NOT NULL,
  last_ts     timestamptz NOT NULL,
  lat         double precision NOT NULL,
  lng         double precision NOT NULL,
  speed_mps   real,
  heading_deg real,
  accuracy_m  real,
  -- How many pings the device has stored. Pings are never updated or deleted, so this
  -- count names one exact set of pings: trail responses are cached under it.
  pings_total bigint NOT NULL DEFAULT 0,
  first_seen  timestamptz NOT NULL DEFAULT now(),
  last_received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, device)
);

-- Proof of delivery: metadata only; the photo stays on the caller's https host.
-- Test keys never write here (SPEC §5.3).
CREATE TABLE pods (
  project_id     text NOT NULL,
  sandbox        boolean NOT NULL,
  id             text NOT NULL,
  stop_id        text NOT NULL,
  photo_url      text NOT NULL,
  recipient_name text,
  delivered_at   timestamptz NOT NULL,
  lat            double precision NOT NULL,
  lng            double precision NOT NULL,
  accuracy_m     double precision,
  device         text,
  partner        text,
  notes          text,
  pin_lat        double precision NOT NULL,
  pin_lng        double precision NOT NULL,
  pin_confirmed  boolean NOT NULL,
  distance_from_pin_m double precision NOT NULL,
  flags          text[] NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, id),
  FOREIGN KEY (project_id, sandbox, stop_id) REFERENCES stops (project_id, sandbox, id)
);
CREATE INDEX pods_stop ON pods (project_id, sandbox, stop_id, delivered_at);

-- Disputes keep the evidence pack as assembled when the dispute was opened, so it
-- cannot drift when later pings or confirmations arrive.
CREATE TABLE disputes (
  project_id text NOT NULL,
  sandbox    boolean NOT NULL,
  id         text NOT NULL,
  stop_id    text NOT NULL,
  pod_id     text,
  reason     text NOT NULL,
  category   text,
  partner    text,
  status     text NOT NULL DEFAULT 'open',
  evidence   jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, id)
);

-- Trip pin surveys posted by an integration (built-in slug 'logistics-partner').
-- One row per (slug, trip_id): re-posting a survey replaces it.
CREATE TABLE trip_outcomes (
  project_id text NOT NULL,
  sandbox    boolean NOT NULL,
  slug       text NOT NULL,
  trip_id    text NOT NULL,
  outcome    text NOT NULL,
  pins       jsonb NOT NULL,
  hints      jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, slug, trip_id)
);

-- Geofence zones: a GeoJSON Polygon plus its bounding box for a cheap first filter.
CREATE TABLE zones (
  project_id text NOT NULL,
  sandbox    boolean NOT NULL,
  id         text NOT NULL,
  name       text NOT NULL,
  polygon    jsonb NOT NULL,
  min_lat    double precision NOT NULL,
  min_lng    double precision NOT NULL,
  max_lat    double precision NOT NULL,
  max_lng    double precision NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, id)
);
