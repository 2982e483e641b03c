-- The schema of migrations/sqlite/001_initial.sql in PostgreSQL's dialect. Names are unqualified:
-- the tables go in the first schema of the connection's search_path.
-- Times are ms since the epoch (bigint); the adapters read bigint columns as JS numbers.
-- Text keys use the "C" collation: byte order, like SQLite's, and the cheapest comparisons.

-- Rates per 1 EUR, as exact decimal strings (never numeric: the text written is the text read).
-- `version` is the merge that last wrote the row, so a running server can fetch only what
-- changed since the version it holds.
CREATE TABLE rates (
  day      text COLLATE "C" NOT NULL,
  currency text COLLATE "C" NOT NULL,
  rate     text   NOT NULL,
  version  bigint NOT NULL,
  PRIMARY KEY (day, currency)
);
CREATE INDEX rates_by_version ON rates (version);

-- Change counters polled by running servers (rates: new data; keys: created or revoked keys).
-- Merges lock the 'rates' row, which serialises them.
CREATE TABLE data_versions (
  name    text PRIMARY KEY,
  version bigint NOT NULL
);
INSERT INTO data_versions (name, version) VALUES ('rates', 0), ('keys', 0);

-- Only the SHA-256 of a key is kept.
CREATE TABLE api_keys (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name       text,
  key_hash   text   NOT NULL UNIQUE,
  created_at bigint NOT NULL,
  revoked_at bigint
);

-- One fixed period per key: it starts at the first counted request and lasts the configured span.
CREATE TABLE quota_usage (
  key_id       bigint  PRIMARY KEY REFERENCES api_keys (id),
  period_start bigint  NOT NULL,
  used         integer NOT NULL
);

-- Leases on scheduled jobs: one instance runs each scheduled ingestion.
CREATE TABLE job_claims (
  slot         text PRIMARY KEY,
  holder       text   NOT NULL,
  lease_until  bigint NOT NULL,
  completed_at bigint
);
