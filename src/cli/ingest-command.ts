import { parseArgs } from 'node:util';
import { runIngestion, summarise } from '../ingest/run-ingestion.js';
import { ECB_URLS, INGEST_SOURCES, type IngestSource, type IngestSourceName } from '../ingest/sources.js';
import { withStores } from './open-cli-stores.js';
import { USAGE, UsageError } from './usage.js';

function sourceOf(values: { file?: string; url?: string; source?: string }): IngestSource {
  const given = [values.file, values.url, values.source].filter((value) => value !== undefined);
  if (given.length > 1) throw new UsageError('give only one of --file, --url and --source', USAGE.ingest);
  if (values.file !== undefined) return { file: values.file };
  if (values.url !== undefined) {
    if (!/^https?:\/\//.test(values.url)) throw new UsageError(`--url must be an http(s) URL: ${values.url}`, USAGE.ingest);
    return { url: values.url };
  }
  const name = values.source ?? 'ecb-daily';
  if (!(INGEST_SOURCES as readonly string[]).includes(name)) {
    throw new UsageError(`--source must be one of ${INGEST_SOURCES.join(', ')}`, USAGE.ingest);
  }
  return { url: ECB_URLS[name as IngestSourceName] };
}

export async function ingestCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { file: { type: 'string' }, url: { type: 'string' }, source: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return void console.log(USAGE.ingest);
  const source = sourceOf(values);
  const report = await withStores((stores) => runIngestion(stores.rates, source));
  console.log(summarise(report));
}
