import type { RateRange } from '../domain/range-queries.js';

/**
 * A range as JSON text, written day by day: the same bytes JSON.stringify gives for
 * `{base, start_date, end_date, rates: {day: {code: rate}}}`, without building that object.
 */
export function rateRangeJson(range: RateRange): string {
  const days: string[] = [];
  for (const [date, rates] of range.days()) days.push(`${JSON.stringify(date)}:${JSON.stringify(rates)}`);
  const { base, start_date, end_date } = range;
  return `${JSON.stringify({ base, start_date, end_date }).slice(0, -1)},"rates":{${days.join(',')}}}`;
}

/**
 * A range as CSV for spreadsheets (RFC 4180, CRLF line ends): a `date` column, then one column
 * per currency of the answer (alphabetical), one row per day, an empty cell where a day has no
 * rate. Codes, dates and rates hold no comma or quote, so no field needs quoting.
 */
export function rateRangeCsv(range: RateRange): string {
  const lines = [['date', ...range.codes].join(',')];
  for (const [date, rates] of range.days()) lines.push([date, ...range.codes.map((code) => rates[code] ?? '')].join(','));
  return lines.join('\r\n') + '\r\n';
}
