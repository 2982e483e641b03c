-- The schema of migrations/sqlite/004_source_rates.sql in PostgreSQL's dialect.
-- The values of the rate sources other than the ECB (DECISIONS §9), each in its source's own terms:
-- `value` is P(currency), units of the source's base currency per ONE unit of `currency` on `day`
-- (the bank's nominal divided out), as exact decimal text (never numeric: the text written is the
-- text read). The ECB's figures stay in `rates`. `version` is the merge that last wrote the row,
-- counted by data_versions 'source_rates', whose row also serialises these merges.
CREATE TABLE source_rates (
  source   text COLLATE "C" NOT NULL,
  day      text COLLATE "C" NOT NULL,
  currency text COLLATE "C" NOT NULL,
  value    text   NOT NULL,
  version  bigint NOT NULL,
  PRIMARY KEY (source, day, currency)
);
CREATE INDEX source_rates_by_version ON source_rates (version);

INSERT INTO data_versions (name, version) VALUES ('source_rates', 0);
