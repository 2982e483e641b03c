import { FEED_NAMES, SOURCE_IDS } from '../ingest/sources/registry.js';

/** Help texts: printed by --help (exit 0) and after a usage error (exit 2). */
export const USAGE = {
  main: `Usage: currency-rates <command> [options]
       currency-rates --version

Commands:
  serve                 Run the HTTP API
  ingest                Load a rate source's values (the ECB's by default) into the store
  keys create|list|update|revoke
                        Manage API keys and their quotas
  sources compare       Compare the enabled sources' rates per 1 EUR on one day, flag wide gaps
  migrate               Create or update the database schema

Run "currency-rates <command> --help" for a command's options.
Configuration comes from the environment (see README: DATABASE_URL, PORT, ...).`,
  serve: `Usage: currency-rates serve

Runs the HTTP API. Configured by environment variables: PORT, HOST, DATABASE_URL, QUOTA_LIMIT,
QUOTA_PERIOD_DAYS, CURRENCIES, SOURCES, LOG_LEVEL, INGEST_ON_EMPTY, INGEST_SCHEDULE,
REFRESH_INTERVAL_MS, REDIS_URL, REDIS_KEY_PREFIX, WORKERS, METRICS, METRICS_TOKEN (see README,
"Configuration").`,
  ingest: `Usage: currency-rates ingest [--source ID] [--file PATH | --url URL | --since YYYY-MM-DD]
       currency-rates ingest --source ${FEED_NAMES.join('|')}

Loads one source's values into the store named by DATABASE_URL, the ECB's unless --source names
another. With --file or --url, one document of that source (an ECB XML, CSV or history ZIP file,
told by content; an NBP table); with --since, every day from that one to today by the source's
range URLs; alone, its latest publication (the ECB's: its daily file). A bank whose endpoint takes
a POST or a header (bom, cba, bcu, mnb, bnm) gets its own requests at --url, as the bank would.
All or nothing: on malformed input it exits non-zero, names the problem and writes nothing.

Options:
  --source ID     a rate source: ${SOURCE_IDS.join(', ')} (default: ecb)
  --file PATH     a local file
  --url URL       any URL serving such a file (or the bank's endpoint, mirrored)
  --since DATE    the days from DATE (YYYY-MM-DD) to today (UTC)
  --source NAME   a source's file by name, alone: ${FEED_NAMES.join(', ')}`,
  keys: `Usage: currency-rates keys <create | list | update | revoke> [options]

  create [--name NAME] [--quota Q]
                        creates a key and prints it, alone, on the last line (shown only once);
                        NAME: 1 to 100 printable characters; Q: the key's own requests per
                        period, 1 to 1000000000 (without it: QUOTA_LIMIT)
  list [--json]         lists each key's id, name, creation time, quota, use of the current
                        period and status (never the keys); --json for scripts
  update ID --quota Q   sets a key's own quota (Q, or "default" for QUOTA_LIMIT); running
                        servers apply it within seconds, to the current period
  revoke ID             revokes a key; running servers refuse it within seconds
  revoke --name NAME    the same, for the one active key named NAME`,
  sources: `Usage: currency-rates sources compare [--date YYYY-MM-DD] [--threshold P] [--json]

For each currency that two sources enabled in SOURCES both give on one day, prints each pair's
rates per 1 EUR (the ECB's own figure; another bank's P(EUR) / P(X)) and their difference
(b - a) / a x 100 in percent, computed exactly and rounded once to 6 places; then the currencies
on which two sources differ by more than P percent, with those pairs' lines again.

Options:
  --date D        the day to compare (default: the latest day on which two enabled sources have values)
  --threshold P   flag differences larger than P percent, either way, exactly (default 1; 0.5 means
                  0.5 %): digits with an optional point, such as 1, 0.5 or 2.25
  --json          one JSON object: {date, sources, comparisons: [{currency, source_a, rate_a,
                  source_b, rate_b, difference_pct}], threshold_pct, beyond_threshold: [codes]}`,
  migrate: `Usage: currency-rates migrate

Creates or updates the schema of the database named by DATABASE_URL.`,
} as const;

export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}
