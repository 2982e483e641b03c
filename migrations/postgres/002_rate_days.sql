-- Every day's rates in one row ("USD=1.1684;JPY=186.75;…"), kept in step with `rates` by each
-- merge. A server loads about 7,000 of these at start instead of 220,000 single values.
CREATE TABLE rate_days (
  day     text   COLLATE "C" PRIMARY KEY,
  rates   text   NOT NULL,
  version bigint NOT NULL
);
CREATE INDEX rate_days_by_version ON rate_days (version);

INSERT INTO rate_days (day, rates, version)
SELECT day, string_agg(currency || '=' || rate, ';' ORDER BY currency), max(version) FROM rates GROUP BY day;
