import { today as utcToday } from '../ingest/sources/day-range.js';
import { parseArgs } from 'node:util';
import { isValidIsoDate } from '../domain/calendar-date.js';
import { runIngestion, runRangeIngestion, summarise } from '../ingest/run-ingestion.js';
import type { IngestSource } from '../ingest/sources.js';
import { ecb } from '../ingest/sources/ecb.js';
import { FEED_NAMES, namedFeed, SOURCE_IDS, sourceAdapter } from '../ingest/sources/registry.js';
import type { DayRange, SourceAdapter } from '../ingest/sources/source-adapter.js';
import { withStores } from './open-cli-stores.js';
import { USAGE, UsageError } from './usage.js';

interface Values {
  file?: string;
  url?: string;
  since?: string;
  source?: string;
}

/** What to read: a file, a URL, the days since a date, or (undefined) the latest publication. */
function inputOf(values: Values): IngestSource | DayRange | undefined {
  if (values.file !== undefined && values.url !== undefined) throw new UsageError('give only one of --file and --url', USAGE.ingest);
  if (values.since !== undefined && (values.file !== undefined || values.url !== undefined)) {
    throw new UsageError("--since reads the source's range URLs: give it without --file or --url", USAGE.ingest);
  }
  if (values.file !== undefined) return { file: values.file };
  if (values.url !== undefined) {
    if (!/^https?:\/\//.test(values.url)) throw new UsageError(`--url must be an http(s) URL: ${values.url}`, USAGE.ingest);
    return { url: values.url };
  }
  if (values.since !== undefined) {
    const today = utcToday();
    if (!isValidIsoDate(values.since)) throw new UsageError(`--since must be a calendar date YYYY-MM-DD: ${values.since}`, USAGE.ingest);
    if (values.since > today) throw new UsageError(`--since must not be after today (${today}, UTC): ${values.since}`, USAGE.ingest);
    return { from: values.since, to: today };
  }
  return undefined;
}

/**
 * Which source, and what of it: a source by id (the ECB without --source), or one of a source's
 * named files (--source ecb-hist …), alone.
 */
function ingestionOf(values: Values): { adapter: SourceAdapter; input: IngestSource | DayRange | undefined } {
  const input = inputOf(values);
  const name = values.source;
  if (name === undefined) return { adapter: ecb, input };
  const adapter = sourceAdapter(name);
  if (adapter) return { adapter, input };
  const feed = namedFeed(name);
  if (feed === undefined) throw new UsageError(`--source must be one of ${[...SOURCE_IDS, ...FEED_NAMES].join(', ')}`, USAGE.ingest);
  if (input) throw new UsageError(`--source ${name} names a file: give it without --file, --url or --since`, USAGE.ingest);
  return { adapter: feed.adapter, input: { url: feed.url } };
}

export async function ingestCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { file: { type: 'string' }, url: { type: 'string' }, since: { type: 'string' }, source: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return void console.log(USAGE.ingest);
  const { adapter, input } = ingestionOf(values);
  if (input !== undefined && 'from' in input) {
    const report = await withStores((stores) => runRangeIngestion(stores.rates, adapter, input));
    console.log(report ? summarise(report) : `ingested ${adapter.id}: nothing published from ${input.from} to ${input.to}`);
    return;
  }
  const report = await withStores((stores) => runIngestion(stores.rates, adapter, input));
  console.log(summarise(report));
}
