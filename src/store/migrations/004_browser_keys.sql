-- Browser keys (SPEC §5.4): restricted to listed web origins, with their own burst limit.
-- NULL origins = a server key. Browser keys hold only the maps and geo scopes (src/auth/keys.ts).
ALTER TABLE api_keys ADD COLUMN origins text[];
ALTER TABLE api_keys ADD COLUMN burst_rps integer CHECK (burst_rps IS NULL OR burst_rps > 0);
