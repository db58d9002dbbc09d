-- Address verification products: a subject's address and pin checked by device presence at
-- night (digital) or by an agent's visit (field). Keyed like the logistics tables by
-- (project_id, sandbox, id): test keys write sandbox rows only and never see live ones.
-- The state lives here, so a restart loses nothing: the evaluator picks pending rows up again.

CREATE TABLE address_verifications (
  project_id   text NOT NULL,
  sandbox      boolean NOT NULL,
  id           text NOT NULL,                 -- avr_…
  product      text NOT NULL CHECK (product IN ('digital', 'field')),
  subject_id   text NOT NULL,                 -- the caller's id for the person
  device       text,                          -- digital: the device whose pings are watched
  external_ref text,
  address      text,                          -- as given (text), or null when components were given
  components   jsonb,                         -- as given, or null
  country      text,
  pin_lat      double precision NOT NULL,
  pin_lng      double precision NOT NULL,
  resolution   jsonb,                         -- what address verification made of the address and pin
  timezone     text NOT NULL,                 -- IANA zone the nights are read in
  radius_m     double precision NOT NULL,
  min_nights   integer NOT NULL,
  window_start timestamptz NOT NULL,
  window_end   timestamptz NOT NULL,
  consent_at   timestamptz NOT NULL,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'failed', 'expired', 'cancelled')),
  reason       text,
  evidence     jsonb NOT NULL DEFAULT '{}',
  confidence   double precision,
  completed_at timestamptz,
  -- Real (not simulated) time of the last evaluation: pings received after it make the row due.
  evaluated_at timestamptz NOT NULL DEFAULT now(),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, id)
);
CREATE INDEX address_verifications_list ON address_verifications (project_id, sandbox, created_at, id);
CREATE INDEX address_verifications_pending ON address_verifications (window_end) WHERE status = 'pending';
CREATE INDEX address_verifications_subject ON address_verifications (project_id, sandbox, subject_id);

-- Field visits: the agent's photo address (hosted by the caller), position and time.
CREATE TABLE address_verification_visits (
  project_id      text NOT NULL,
  sandbox         boolean NOT NULL,
  verification_id text NOT NULL,
  seq             integer NOT NULL,
  photo_url       text NOT NULL,
  lat             double precision NOT NULL,
  lng             double precision NOT NULL,
  accuracy_m      double precision,
  visited_at      timestamptz NOT NULL,
  agent           text,
  notes           text,
  distance_m      double precision NOT NULL,
  accepted        boolean NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sandbox, verification_id, seq),
  FOREIGN KEY (project_id, sandbox, verification_id) REFERENCES address_verifications (project_id, sandbox, id) ON DELETE CASCADE
);

-- The sandbox clock of a project: test keys' time is the real time plus this offset, moved
-- forward only by POST /api/v1/sandbox/clock. Live keys always run on the real clock.
CREATE TABLE sandbox_clocks (
  project_id text PRIMARY KEY,
  offset_ms  bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
