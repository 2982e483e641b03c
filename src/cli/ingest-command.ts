import { parseArgs } from 'node:util';
import { runIngestion, summarise, type IngestionReport } from '../ingest/run-ingestion.js';
import { runSourceIngestion } from '../ingest/run-source-ingestion.js';
import { ECB_URLS, INGEST_SOURCES, type IngestSource, type IngestSourceName } from '../ingest/sources.js';
import { SOURCE_IDS, sourceAdapter } from '../ingest/sources/registry.js';
import type { SourceAdapter } from '../ingest/sources/source-adapter.js';
import type { OpenedStores } from '../storage/ports.js';
import { withStores } from './open-cli-stores.js';
import { USAGE, UsageError } from './usage.js';

type Ingest = (stores: OpenedStores) => Promise<IngestionReport>;

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
 * What to ingest: an ECB file or URL (no --source), one of the ECB's feeds by name (--source
 * ecb-daily …, alone), or a source by id (--source nbp …) with --file or --url holding one of its
 * documents, or else the source's own latest publication.
 */
function ingestionOf(values: { file?: string; url?: string; source?: string }): Ingest {
  const input = inputOf(values);
  const name = values.source;
  const adapter: SourceAdapter | undefined = name === undefined ? undefined : sourceAdapter(name);
  if (adapter) return (stores) => runSourceIngestion(stores, adapter, input);
  if (name !== undefined && !(INGEST_SOURCES as readonly string[]).includes(name)) {
    throw new UsageError(`--source must be one of ${[...SOURCE_IDS, ...INGEST_SOURCES].join(', ')}`, USAGE.ingest);
  }
  if (name !== undefined && input) throw new UsageError(`--source ${name} names a feed: give it without --file or --url`, USAGE.ingest);
  const source = input ?? { url: ECB_URLS[(name ?? 'ecb-daily') as IngestSourceName] };
  return (stores) => runIngestion(stores.rates, source);
}

export async function ingestCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { file: { type: 'string' }, url: { type: 'string' }, source: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return void console.log(USAGE.ingest);
  const ingest = ingestionOf(values);
  const report = await withStores(ingest);
  console.log(summarise(report));
}
