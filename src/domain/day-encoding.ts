/**
 * One day's rates as one string, `USD=1.1684;JPY=186.75`: how the stores hand whole days to the
 * snapshot. Codes are three letters and rates canonical decimals, so neither separator can occur
 * inside a value.
 */
export function decodeDayRates(encoded: string, keep: (code: string) => boolean): Map<string, string> {
  const rates = new Map<string, string>();
  for (const pair of encoded.split(';')) {
    const code = pair.slice(0, 3);
    if (pair.charCodeAt(3) === 61 /* = */ && keep(code)) rates.set(code, pair.slice(4));
  }
  return rates;
}
