-- Outgoing webhooks (issue 17 §2). Events are written to an outbox in the same
-- transaction as the business row they describe, together with one delivery row per
-- subscribed endpoint, so an acknowledged write always has its deliveries queued.

CREATE TABLE webhook_endpoints (
  id          text PRIMARY KEY,               -- whe_…
  project_id  text NOT NULL,
  sandbox     boolean NOT NULL,               -- test endpoints receive only test-key events
  url         text NOT NULL,
  secret      text NOT NULL,                  -- whsec_…: signs every delivery
  events      text[] NOT NULL,
  description text,
  enabled     boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE INDEX webhook_endpoints_project ON webhook_endpoints (project_id, sandbox) WHERE deleted_at IS NULL;

CREATE TABLE webhook_events (
  id          text PRIMARY KEY,               -- evt_…
  project_id  text NOT NULL,
  sandbox     boolean NOT NULL,
  type        text NOT NULL,
  payload     text NOT NULL,                  -- the exact JSON text sent (signed as is)
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_project ON webhook_events (project_id, sandbox, created_at DESC);

CREATE TABLE webhook_deliveries (
  id              bigserial PRIMARY KEY,
  event_id        text NOT NULL REFERENCES webhook_events(id),
  endpoint_id     text NOT NULL REFERENCES webhook_endpoints(id),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until     timestamptz,                -- a sender holds it until then (crash: another takes over)
  last_status     integer,
  last_error      text,
  replay          boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);

CREATE TABLE webhook_attempts (
  id            bigserial PRIMARY KEY,
  delivery_id   bigint NOT NULL REFERENCES webhook_deliveries(id),
  attempt       integer NOT NULL,
  at            timestamptz NOT NULL DEFAULT now(),
  status_code   integer,
  error         text,
  duration_ms   integer NOT NULL,
  response      text                         -- first 512 bytes of the answer
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempt);
