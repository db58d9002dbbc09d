-- Projects, API keys (stored only as a SHA-256 hash) and monthly usage.
CREATE TABLE projects (
  id          text PRIMARY KEY,
  name        text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  project_id  text NOT NULL REFERENCES projects(id),
  -- first characters of the key ("svc_live_Ab12"), enough to recognise it in a list
  display     text NOT NULL,
  hash        text NOT NULL UNIQUE,
  plan        text NOT NULL CHECK (plan IN ('free', 'developer', 'enterprise')),
  scopes      text[] NOT NULL,
  test        boolean NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_updated ON api_keys (updated_at);

CREATE TABLE key_usage (
  key_id  text NOT NULL REFERENCES api_keys(id),
  month   text NOT NULL,          -- 'YYYY-MM' in UTC
  count   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, month)
);
