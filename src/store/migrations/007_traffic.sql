-- Traffic from real probes: contributed probe traces as received, the speed samples map matching
-- derives from them (and from live tracking pings), and the weekly profile those samples build.
CREATE TABLE traffic_probes (
  id          bigserial PRIMARY KEY,
  project_id  text NOT NULL,
  trace_id    text NOT NULL,
  -- [[lat, lng, epoch_ms], …] sorted by time, as validated at ingest
  points      jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  claimed_at  timestamptz,
  processed_at timestamptz
);
CREATE INDEX traffic_probes_todo ON traffic_probes (id) WHERE processed_at IS NULL;

-- One sample: a matched trace crossed a directed edge of a routed graph at this speed.
-- `device` is a one-way hash (project + device or trace id); it never leaves the database.
CREATE TABLE traffic_samples (
  extract   text NOT NULL,
  profile   text NOT NULL,
  edge      integer NOT NULL,
  dir       smallint NOT NULL,
  ts        timestamptz NOT NULL,
  speed_kph real NOT NULL,
  device    text NOT NULL
);
CREATE INDEX traffic_samples_ts ON traffic_samples (ts);

CREATE TABLE traffic_profile (
  extract text NOT NULL, profile text NOT NULL, edge integer NOT NULL, dir smallint NOT NULL,
  dow smallint NOT NULL, hour smallint NOT NULL,
  n       integer NOT NULL,
  sum_kph double precision NOT NULL,
  devices integer NOT NULL,
  PRIMARY KEY (extract, profile, edge, dir, dow, hour)
);
CREATE TABLE traffic_profile_devices (
  extract text NOT NULL, profile text NOT NULL, edge integer NOT NULL, dir smallint NOT NULL,
  dow smallint NOT NULL, hour smallint NOT NULL, device text NOT NULL,
  PRIMARY KEY (extract, profile, edge, dir, dow, hour, device)
);

-- Live tracking pings feed traffic too: read in time windows behind this cursor.
CREATE INDEX pings_live_ts ON pings (ts) WHERE NOT sandbox;
CREATE TABLE traffic_cursor (name text PRIMARY KEY, ts timestamptz NOT NULL);
