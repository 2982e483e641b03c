import type { SourceValue } from '../domain/source-values.js';
import type { RatesStore, SourceRatesStore } from '../storage/ports.js';
import type { IngestionReport } from './run-ingestion.js';
import { describeSource, readSource, type IngestSource } from './sources.js';
import { combineDocuments } from './sources/day-collector.js';
import { ecb } from './sources/ecb.js';
import type { DayRange, SourceAdapter, SourceDay } from './sources/source-adapter.js';

export interface SourceIngestionStores {
  rates: RatesStore;
  sourceRates: SourceRatesStore;
}

/**
 * Ingests one source, all or nothing: every document is read and parsed before the store sees a
 * value, then the values are merged in one transaction. `input` is a local file or a URL holding
 * one document of the source; without it the source's own URLs for its latest publication (or for
 * `range`) are fetched (NBP: tables A and B) and their days combined.
 */
export async function runSourceIngestion(
  stores: SourceIngestionStores,
  adapter: SourceAdapter,
  input?: IngestSource,
  /** Without `input`: the days to fetch instead of the latest publication. */
  range?: DayRange,
): Promise<IngestionReport> {
  const inputs: IngestSource[] = input ? [input] : adapter.urls(range).map((url) => ({ url }));
  const documents: SourceDay[][] = [];
  for (const one of inputs) documents.push(await adapter.parse(await readSource(one), describeSource(one)));
  const name = inputs.map(describeSource).join(' + ');
  const days = combineDocuments(documents, name);

  const values: SourceValue[] = [];
  for (const day of days) for (const [currency, value] of day.values) values.push({ date: day.date, currency, value });
  // The ECB's figures are the service's own rates table, what the default SOURCES=ecb serves
  // unchanged; every other source's values go to the per-source store, in their own terms.
  const report =
    adapter === ecb
      ? await stores.rates.merge(values.map(({ date, currency, value }) => ({ date, currency, rate: value })))
      : await stores.sourceRates.merge(adapter.id, values);
  return { ...report, source: `${adapter.id} ${name}`, firstDate: days[0]!.date, lastDate: days[days.length - 1]!.date };
}
