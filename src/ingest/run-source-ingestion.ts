import type { SourceValue } from '../domain/source-values.js';
import type { RatesStore, SourceRatesStore } from '../storage/ports.js';
import type { IngestionReport } from './run-ingestion.js';
import { describeSource, readSource, SourceUnavailableError, type IngestSource } from './sources.js';
import { combineDocuments, EmptyDocumentError } from './sources/day-collector.js';
import { ecb } from './sources/ecb.js';
import type { DayRange, SourceAdapter, SourceDay } from './sources/source-adapter.js';

export interface SourceIngestionStores {
  rates: RatesStore;
  sourceRates: SourceRatesStore;
}

/**
 * Ingests one source, all or nothing: every document is read and parsed before the store sees a
 * value, then the values are merged in one transaction. `input` is a local file or a URL holding
 * one document of the source; without it the source's own URLs for its latest publication are
 * fetched (NBP: tables A and B) and their days combined.
 */
export async function runSourceIngestion(stores: SourceIngestionStores, adapter: SourceAdapter, input?: IngestSource): Promise<IngestionReport> {
  const inputs: IngestSource[] = input ? [input] : adapter.urls().map((url) => ({ url }));
  const documents: SourceDay[][] = [];
  for (const one of inputs) documents.push(await adapter.parse(await readSource(one), describeSource(one)));
  const name = inputs.map(describeSource).join(' + ');
  return mergeDays(stores, adapter, combineDocuments(documents, name), name);
}

/**
 * Ingests the days of `range` by the source's range URLs, all or nothing like runSourceIngestion,
 * leaving out what a document holds beyond it (CNB answers whole years). A range in which the
 * bank published nothing (a weekend, a holiday) is no error: undefined.
 */
export async function runSourceRangeIngestion(stores: SourceIngestionStores, adapter: SourceAdapter, range: DayRange): Promise<IngestionReport | undefined> {
  const urls = adapter.urls(range);
  const documents: SourceDay[][] = [];
  for (const url of urls) documents.push(await rangeDocument(adapter, url));
  const name = urls.join(' + ');
  const days = combineDocuments(documents, name).filter(({ date }) => date >= range.from && date <= range.to);
  return days.length === 0 ? undefined : mergeDays(stores, adapter, days, name);
}

/** One document of a range; a range without a publication (an empty document, or NBP's 404) holds no days. */
async function rangeDocument(adapter: SourceAdapter, url: string): Promise<SourceDay[]> {
  try {
    return await adapter.parse(await readSource({ url }), url);
  } catch (err) {
    if (err instanceof EmptyDocumentError) return [];
    if (err instanceof SourceUnavailableError && err.status !== undefined && err.status === adapter.emptyRangeStatus) return [];
    throw err;
  }
}

async function mergeDays(stores: SourceIngestionStores, adapter: SourceAdapter, days: readonly SourceDay[], name: string): Promise<IngestionReport> {
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
