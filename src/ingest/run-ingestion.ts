import type { RateRow } from '../domain/snapshot.js';
import type { MergeReport, RatesStore } from '../storage/ports.js';
import { describeSource, readSource, type IngestSource } from './sources.js';
import { countOf } from '../plural.js';

export interface IngestionReport extends MergeReport {
  source: string;
  firstDate: string;
  lastDate: string;
}

/**
 * Reads, parses and validates the whole source before the store sees a row, then merges it in
 * one transaction: malformed input writes nothing, and a crash mid-merge leaves the previous data.
 */
export async function runIngestion(store: RatesStore, source: IngestSource): Promise<IngestionReport> {
  const name = describeSource(source);
  // Loaded on first use: the XML and ZIP parsers slow a server's start, and a server with rates
  // stored ingests only when its daily schedule comes round.
  const { parseRatesFile } = await import('./parse-rates-file.js');
  const days = await parseRatesFile(await readSource(source), name);
  const rows: RateRow[] = [];
  for (const day of days) {
    for (const [currency, rate] of day.rates) rows.push({ date: day.date, currency, rate });
  }
  const report = await store.merge(rows);
  return { ...report, source: name, firstDate: days[0]!.date, lastDate: days[days.length - 1]!.date };
}

export function summarise(report: IngestionReport): string {
  return (
    `ingested ${report.source}: ${countOf(report.days, 'day')} (${report.firstDate} .. ${report.lastDate}), ` +
    `${countOf(report.rates, 'rate')}, ${report.added} new, ${report.changed} changed`
  );
}
