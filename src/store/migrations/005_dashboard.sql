-- The developer dashboard (issue 17): accounts and their sessions, project membership,
-- key names, daily usage for the chart, refused requests, and a per-project audit log.

-- Passwords are stored as scrypt hashes ("scrypt$N$r$p$salt$hash", base64), never in clear.
CREATE TABLE accounts (
  id            text PRIMARY KEY,
  email         text NOT NULL UNIQUE,          -- lower-cased
  password_hash text NOT NULL,
  failed_logins integer NOT NULL DEFAULT 0,   -- consecutive failures since the last success
  locked_until  timestamptz,                  -- lockout after too many failures
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);

-- A session is known by the SHA-256 of its cookie value; the CSRF token is per session.
CREATE TABLE sessions (
  id_hash     text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  csrf        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

ALTER TABLE projects ADD COLUMN plan text NOT NULL DEFAULT 'developer' CHECK (plan IN ('free', 'developer', 'enterprise'));

CREATE TABLE project_members (
  project_id  text NOT NULL REFERENCES projects(id),
  account_id  text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  role        text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'member')),
  added_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, account_id)
);
CREATE INDEX project_members_account ON project_members (account_id);

-- A human name for a key ("checkout backend"); the secret itself is never stored.
ALTER TABLE api_keys ADD COLUMN name text;

-- Requests per key per UTC day, written with the monthly count in one statement (limits.ts).
CREATE TABLE key_usage_daily (
  key_id  text NOT NULL REFERENCES api_keys(id),
  day     date NOT NULL,
  count   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day)
);

-- Requests refused with 403 or 429 (key known): kept in memory, flushed in batches.
CREATE TABLE key_refusals (
  id          bigserial PRIMARY KEY,
  key_id      text NOT NULL,
  project_id  text NOT NULL,
  at          timestamptz NOT NULL,
  status      integer NOT NULL,
  code        text NOT NULL,
  route       text NOT NULL
);
CREATE INDEX key_refusals_project ON key_refusals (project_id, at DESC);

-- Every change to a project, by whom (an account or a key), never carrying a secret.
CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  project_id  text NOT NULL,
  actor       text NOT NULL,                  -- 'account:<email>', 'key:<key id>' or 'cli'
  action      text NOT NULL,                  -- 'key.create', 'key.revoke', 'webhook.create', …
  target      text,
  detail      jsonb NOT NULL DEFAULT '{}',
  ip          text,
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_project ON audit_log (project_id, at DESC);
