import type { SourceValue } from '../domain/source-values.js';
import { countOf } from '../plural.js';
import type { MergeReport, RatesStore } from '../storage/ports.js';
import { checkDayBounds } from './day-bounds.js';
import { requestsAt, sourceRequests } from './source-requests.js';
import { describeSource, describeSources, readSource, SourceUnavailableError, type DocumentSource, type IngestSource } from './sources.js';
import { combineDocuments, EmptyDocumentError } from './sources/day-collector.js';
import { today as utcToday } from './sources/day-range.js';
import type { DayRange, SourceAdapter, SourceDay, SourceRequest } from './sources/source-adapter.js';

export interface IngestionReport extends MergeReport {
  /** The source's id and where its documents came from, e.g. "ecb ./eurofxref-hist.zip". */
  source: string;
  firstDate: string;
  lastDate: string;
}

/**
 * Ingests one source, all or nothing: every document is read, parsed and validated before the
 * store sees a value, then the values are merged in one transaction, so malformed input writes
 * nothing and a crash mid-merge leaves the previous data. `input` is a local file or a URL holding
 * one document of the source (asked for as the source asks its bank: requestsAt); without it the
 * source's own requests for its latest publication are sent (NBP: tables A and B) and their days
 * combined. `today` (UTC) bounds the days accepted.
 */
export async function runIngestion(rates: RatesStore, adapter: SourceAdapter, input?: IngestSource, today = utcToday()): Promise<IngestionReport> {
  const inputs: DocumentSource[] = input === undefined ? sourceRequests(adapter) : 'file' in input ? [input] : requestsAt(adapter, input.url);
  const documents: SourceDay[][] = [];
  for (const one of inputs) documents.push(await adapter.parse(await readSource(one), describeSource(one)));
  const name = describeSources(inputs);
  return mergeDays(rates, adapter, combineDocuments(documents, name), name, today);
}

/**
 * Ingests the days of `range` by the source's range requests, all or nothing like runIngestion,
 * leaving out what a document holds beyond it (CNB answers whole years, the ECB 90 days). A range
 * in which the source published nothing (a weekend, a holiday) is no error: undefined.
 */
export async function runRangeIngestion(rates: RatesStore, adapter: SourceAdapter, range: DayRange, today = utcToday()): Promise<IngestionReport | undefined> {
  const requests = sourceRequests(adapter, range);
  const documents: SourceDay[][] = [];
  for (const request of requests) documents.push(await rangeDocument(adapter, request));
  const name = describeSources(requests);
  const days = combineDocuments(documents, name).filter(({ date }) => date >= range.from && date <= range.to);
  return days.length === 0 ? undefined : mergeDays(rates, adapter, days, name, today);
}

/** One document of a range; a range without a publication (an empty document, or NBP's 404) holds no days. */
async function rangeDocument(adapter: SourceAdapter, request: SourceRequest): Promise<SourceDay[]> {
  try {
    return await adapter.parse(await readSource(request), describeSource(request));
  } catch (err) {
    if (err instanceof EmptyDocumentError) return [];
    if (err instanceof SourceUnavailableError && err.status !== undefined && err.status === adapter.emptyRangeStatus) return [];
    throw err;
  }
}

/** Merges the source's days into the store, in the source's own terms, once they are within bounds. */
async function mergeDays(rates: RatesStore, adapter: SourceAdapter, days: readonly SourceDay[], name: string, today: string): Promise<IngestionReport> {
  checkDayBounds(days, today, name);
  const values: SourceValue[] = [];
  for (const day of days) for (const [currency, value] of day.values) values.push({ date: day.date, currency, value });
  const report = await rates.merge(adapter.id, values);
  return { ...report, source: `${adapter.id} ${name}`, firstDate: days[0]!.date, lastDate: days[days.length - 1]!.date };
}

export function summarise(report: IngestionReport): string {
  return (
    `ingested ${report.source}: ${countOf(report.days, 'day')} (${report.firstDate} .. ${report.lastDate}), ` +
    `${countOf(report.rates, 'rate')}, ${report.added} new, ${report.changed} changed`
  );
}
