-- The schema of migrations/sqlite/005_one_source_model.sql in PostgreSQL's dialect.
-- One store for every rate source, the ECB among them. The ECB's figures move from `rates` into
-- `source_rates` as source 'ecb', in its own terms as before (units per 1 EUR, as published), each
-- with the version that wrote it. `source_days` holds every (source, day) as one string
-- ("USD=1.1684;JPY=186.75;…"), kept in step with `source_rates` by each merge, as `rate_days`
-- held the ECB's days: what a server loads at start. One counter, 'rates', counts the merges of
-- every source; merges lock its row, which serialises them. The file runs in one transaction
-- (pg-migrate.ts): if any statement fails, the database stays as the previous release left it.
INSERT INTO source_rates (source, day, currency, value, version)
SELECT 'ecb', day, currency, rate, version FROM rates;

CREATE TABLE source_days (
  source  text COLLATE "C" NOT NULL,
  day     text COLLATE "C" NOT NULL,
  rates   text   NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (source, day)
);
CREATE INDEX source_days_by_version ON source_days (version);

INSERT INTO source_days (source, day, rates, version)
SELECT source, day, string_agg(currency || '=' || value, ';' ORDER BY currency), max(version) FROM source_rates GROUP BY source, day;

-- No stored row is newer than the one counter.
UPDATE data_versions SET version = (SELECT max(version) FROM data_versions WHERE name IN ('rates', 'source_rates'))
WHERE name = 'rates';
DELETE FROM data_versions WHERE name = 'source_rates';

DROP TABLE rate_days;
DROP TABLE rates;
