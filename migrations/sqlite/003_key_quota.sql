-- A key's own quota (requests per period), replacing QUOTA_LIMIT for it. NULL: the configured
-- QUOTA_LIMIT, which is what every key made before this migration keeps.
ALTER TABLE api_keys ADD COLUMN quota INTEGER CHECK (quota IS NULL OR quota BETWEEN 1 AND 1000000000);
