-- Rates per 1 EUR, as exact decimal strings. `version` is the merge that last wrote the row, so a
-- running server can fetch only what changed since the version it holds.
CREATE TABLE rates (
  day      TEXT    NOT NULL,
  currency TEXT    NOT NULL,
  rate     TEXT    NOT NULL,
  version  INTEGER NOT NULL,
  PRIMARY KEY (day, currency)
) WITHOUT ROWID;
CREATE INDEX rates_by_version ON rates (version);

-- Change counters polled by running servers (rates: new data; keys: created or revoked keys).
CREATE TABLE data_versions (
  name    TEXT PRIMARY KEY,
  version INTEGER NOT NULL
);
INSERT INTO data_versions (name, version) VALUES ('rates', 0), ('keys', 0);

-- Only the SHA-256 of a key is kept.
CREATE TABLE api_keys (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT,
  key_hash   TEXT    NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);

-- One fixed period per key: it starts at the first counted request and lasts the configured span.
CREATE TABLE quota_usage (
  key_id       INTEGER PRIMARY KEY REFERENCES api_keys (id),
  period_start INTEGER NOT NULL,
  used         INTEGER NOT NULL
);

-- Leases on scheduled jobs: one instance runs each scheduled ingestion.
CREATE TABLE job_claims (
  slot         TEXT PRIMARY KEY,
  holder       TEXT    NOT NULL,
  lease_until  INTEGER NOT NULL,
  completed_at INTEGER
);
