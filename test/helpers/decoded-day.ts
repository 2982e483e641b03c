/**
 * A stored day's text (`USD=1.1684;JPY=186.75`, src/domain/day-encoding.ts) decoded whole into a
 * map, the codes `keep` refuses left out: what the tests compare a day read in place against, and
 * how they show a store's days as values.
 */
export function decodeDayRates(encoded: string, keep: (code: string) => boolean): Map<string, string> {
  const rates = new Map<string, string>();
  for (const pair of encoded.split(';')) {
    const code = pair.slice(0, 3);
    if (pair.charCodeAt(3) === 61 /* = */ && keep(code)) rates.set(code, pair.slice(4));
  }
  return rates;
}
