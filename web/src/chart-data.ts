import type { RateRange } from './api.js';

/** A range's answer as the chart draws it: one point per day the API returned, in its order. */
export interface Series {
  days: string[];
  /** Unix seconds of each day (uPlot's x). */
  times: number[];
  /** The rate as a number (the picture only), or null on a day without a rate for the symbol. */
  values: (number | null)[];
  /** The rates as the API wrote them, for the words beside the chart. */
  rates: (string | undefined)[];
}

export function seriesOf(answer: RateRange, symbol: string): Series {
  const days = Object.keys(answer.rates);
  const rates = days.map((day) => answer.rates[day]?.[symbol]);
  return {
    days,
    times: days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000),
    values: rates.map((rate) => (rate === undefined ? null : Number(rate))),
    rates,
  };
}

/** "22 days from … to …: lowest …, highest …, last …": the chart in words, with the API's strings. */
export function describe(series: Series, base: string, symbol: string): string {
  let low: number | undefined;
  let high: number | undefined;
  series.values.forEach((value, i) => {
    if (value === null) return;
    if (low === undefined || value < series.values[low]!) low = i;
    if (high === undefined || value > series.values[high]!) high = i;
  });
  const count = series.days.length;
  const span = `${count} ${count === 1 ? 'day' : 'days'} from ${series.days[0]} to ${series.days[count - 1]}`;
  if (low === undefined || high === undefined) return `${span}: no ${symbol} rate against ${base} on any of them.`;
  const last = series.rates.findLast((rate) => rate !== undefined);
  return (
    `${symbol} per 1 ${base}, ${span}: lowest ${series.rates[low]} (${series.days[low]}), ` +
    `highest ${series.rates[high]} (${series.days[high]}), last ${last}.`
  );
}
