-- The values of the rate sources other than the ECB (DECISIONS §9), each in its source's own terms:
-- `value` is P(currency), units of the source's base currency per ONE unit of `currency` on `day`
-- (the bank's nominal divided out), as exact decimal text. The ECB's figures stay in `rates`.
-- `version` is the merge that last wrote the row, as in `rates`, counted by data_versions
-- 'source_rates' so that ECB merges and versions are untouched.
CREATE TABLE source_rates (
  source   TEXT    NOT NULL,
  day      TEXT    NOT NULL,
  currency TEXT    NOT NULL,
  value    TEXT    NOT NULL,
  version  INTEGER NOT NULL,
  PRIMARY KEY (source, day, currency)
) WITHOUT ROWID;
CREATE INDEX source_rates_by_version ON source_rates (version);

INSERT INTO data_versions (name, version) VALUES ('source_rates', 0);
