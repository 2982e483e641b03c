import { parseArgs } from 'node:util';
import { runIngestion, summarise } from '../ingest/run-ingestion.js';
import type { IngestSource } from '../ingest/sources.js';
import { ecb } from '../ingest/sources/ecb.js';
import { FEED_NAMES, namedFeed, SOURCE_IDS, sourceAdapter } from '../ingest/sources/registry.js';
import type { SourceAdapter } from '../ingest/sources/source-adapter.js';
import { withStores } from './open-cli-stores.js';
import { USAGE, UsageError } from './usage.js';

function inputOf(values: { file?: string; url?: string }): IngestSource | undefined {
  if (values.file !== undefined && values.url !== undefined) throw new UsageError('give only one of --file and --url', USAGE.ingest);
  if (values.file !== undefined) return { file: values.file };
  if (values.url !== undefined) {
    if (!/^https?:\/\//.test(values.url)) throw new UsageError(`--url must be an http(s) URL: ${values.url}`, USAGE.ingest);
    return { url: values.url };
  }
  return undefined;
}

/**
 * What to ingest: a source by id (the ECB without --source) with --file or --url holding one of
 * its documents, or else its latest publication; or one of a source's named feeds (--source
 * ecb-hist …), alone.
 */
function ingestionOf(values: { file?: string; url?: string; source?: string }): { adapter: SourceAdapter; input: IngestSource | undefined } {
  const input = inputOf(values);
  const name = values.source;
  if (name === undefined) return { adapter: ecb, input };
  const adapter = sourceAdapter(name);
  if (adapter) return { adapter, input };
  const feed = namedFeed(name);
  if (feed === undefined) throw new UsageError(`--source must be one of ${[...SOURCE_IDS, ...FEED_NAMES].join(', ')}`, USAGE.ingest);
  if (input) throw new UsageError(`--source ${name} names a feed: give it without --file or --url`, USAGE.ingest);
  return { adapter: feed.adapter, input: { url: feed.url } };
}

export async function ingestCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { file: { type: 'string' }, url: { type: 'string' }, source: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return void console.log(USAGE.ingest);
  const { adapter, input } = ingestionOf(values);
  const report = await withStores((stores) => runIngestion(stores.rates, adapter, input));
  console.log(summarise(report));
}
