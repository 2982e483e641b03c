import { parseArgs } from 'node:util';
import { isValidIsoDate } from '../domain/calendar-date.js';
import { decimal } from '../domain/money.js';
import { compareSources, disagreeingCodes, type SourcePairComparison } from '../domain/source-comparison.js';
import { quotesEur, StoredSourceDay, type SourceDayValues } from '../domain/source-day.js';
import { sourceAdapter } from '../ingest/sources/registry.js';
import type { OpenedStores } from '../storage/ports.js';
import { withStores } from './open-cli-stores.js';
import { USAGE, UsageError } from './usage.js';

/** The threshold without --threshold: 1 %. */
const DEFAULT_THRESHOLD = '1';

/** An enabled source's stored days, each as its values of that day. */
type StoredDays = Map<string, SourceDayValues>;

/** Every stored day of each enabled source, in SOURCES order, decoded when read. */
async function storedDays(stores: OpenedStores, ids: readonly string[]): Promise<{ id: string; days: StoredDays }[]> {
  const { days: stored } = await stores.rates.daysSince(0);
  return ids.map((id) => {
    const adapter = sourceAdapter(id)!;
    const days: StoredDays = new Map();
    for (const day of stored) if (day.source === id) days.set(day.date, new StoredSourceDay(adapter, day.date, day.rates));
    return { id, days };
  });
}

/** The sources with rates per 1 EUR on `date` (values and EUR stored that day), in SOURCES order. */
function ratedOn(sources: { days: StoredDays }[], date: string): SourceDayValues[] {
  return sources.flatMap(({ days }) => {
    const day = days.get(date);
    return day && quotesEur(day) ? [day] : [];
  });
}

/** The latest day on which at least two enabled sources give rates per 1 EUR. */
function latestShared(sources: { days: StoredDays }[]): string | undefined {
  const dates = [...new Set(sources.flatMap(({ days }) => [...days.keys()]))].sort().reverse();
  return dates.find((date) => ratedOn(sources, date).length >= 2);
}

const row = (line: SourcePairComparison) =>
  `${line.currency.padEnd(8)} ${line.sourceA.padEnd(6)} ${line.rateA.padStart(18)}  ${line.sourceB.padEnd(6)} ${line.rateB.padStart(18)}  ${line.differencePct.padStart(12)}`;

/** Every pair's line, then the currencies beyond the threshold with their lines again, for a long table. */
function table(date: string, compared: readonly SourceDayValues[], lines: readonly SourcePairComparison[], threshold: string): string {
  const codes = disagreeingCodes(lines);
  return [
    `Rates per 1 EUR on ${date} from ${compared.map((day) => day.source).join(', ')}; difference = (b - a) / a x 100`,
    `${'currency'.padEnd(8)} ${'a'.padEnd(6)} ${'rate a'.padStart(18)}  ${'b'.padEnd(6)} ${'rate b'.padStart(18)}  ${'difference %'.padStart(12)}`,
    ...lines.map(row),
    '',
    codes.length === 0 ? `No currency on which two sources differ by more than ${threshold}%` : `Sources differ by more than ${threshold}% on ${codes.length} of ${new Set(lines.map((line) => line.currency)).size} currencies: ${codes.join(', ')}`,
    ...lines.filter((line) => line.beyondThreshold).map(row),
  ].join('\n');
}

/** A threshold in percent as written: digits, optionally a point and up to 12 more (`1`, `0.5`, `2.25`). */
const THRESHOLD = /^\d{1,6}(\.\d{1,12})?$/;

/**
 * `sources compare [--date D] [--threshold P] [--json]`: for each currency two enabled sources both
 * give on day D, each pair's rates per 1 EUR and their relative difference, from the exact values,
 * and the currencies on which two differ by more than P percent (default 1). D defaults to the
 * latest day on which two enabled sources have values.
 */
async function compareCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { date: { type: 'string' }, threshold: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) return void console.log(USAGE.sources);
  if (values.date !== undefined && !isValidIsoDate(values.date)) throw new UsageError(`--date must be a calendar date YYYY-MM-DD: ${values.date}`, USAGE.sources);
  const threshold = values.threshold ?? DEFAULT_THRESHOLD;
  if (!THRESHOLD.test(threshold)) throw new UsageError(`--threshold must be a percentage, a decimal number such as 0.5 (for 0.5 %): ${threshold}`, USAGE.sources);
  await withStores(async (stores, config) => {
    if (config.sources.length < 2) throw new Error(`sources compare needs at least two sources in SOURCES (it is ${config.sources.join(',')})`);
    const sources = await storedDays(stores, config.sources);
    const date = values.date ?? latestShared(sources);
    if (date === undefined) throw new Error(`no day on which two of the enabled sources (${config.sources.join(', ')}) have rates per 1 EUR`);
    const compared = ratedOn(sources, date);
    if (compared.length < 2) {
      const have = compared.map((day) => day.source).join(', ') || 'none';
      throw new Error(`on ${date} fewer than two enabled sources have rates per 1 EUR (${have} of ${config.sources.join(', ')})`);
    }
    const lines = compareSources(compared, decimal(threshold));
    if (values.json) {
      const rows = lines.map((line) => ({
        currency: line.currency, source_a: line.sourceA, rate_a: line.rateA, source_b: line.sourceB, rate_b: line.rateB, difference_pct: line.differencePct,
      }));
      const sources = compared.map((day) => day.source);
      console.log(JSON.stringify({ date, sources, comparisons: rows, threshold_pct: threshold, beyond_threshold: disagreeingCodes(lines) }));
    } else console.log(table(date, compared, lines, threshold));
  });
}

export async function sourcesCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h') return void console.log(USAGE.sources);
  if (sub !== 'compare') throw new UsageError(sub === undefined ? 'sources needs a subcommand: compare' : `unknown sources subcommand: ${sub}`, USAGE.sources);
  await compareCommand(rest);
}
