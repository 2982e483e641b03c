import type { Currency } from './api.js';

/** How many suggestions a field shows at once: enough to pick from, short enough to read. */
export const MAX_SUGGESTIONS = 8;

/**
 * The currencies that fit what was typed, best first: the code beginning with it, then a word of
 * the name beginning with it ("won" → KPW, KRW), then the name holding it anywhere; code order
 * within each. Case and accents are ignored ("colon" finds "Costa Rican Colón").
 */
export function currencyMatches(typed: string, currencies: readonly Currency[], limit = MAX_SUGGESTIONS): Currency[] {
  const query = folded(typed.trim());
  if (query === '') return [];
  const ranked: { rank: number; currency: Currency }[] = [];
  for (const currency of currencies) {
    const rank = rankOf(query, currency);
    if (rank !== undefined) ranked.push({ rank, currency });
  }
  ranked.sort((a, b) => a.rank - b.rank || (a.currency.code < b.currency.code ? -1 : 1));
  return ranked.slice(0, limit).map(({ currency }) => currency);
}

function rankOf(query: string, currency: Currency): number | undefined {
  if (folded(currency.code).startsWith(query)) return 0;
  const name = folded(currency.name);
  if (name.split(/[^a-z0-9]+/).some((word) => word.startsWith(query))) return 1;
  if (name.includes(query)) return 2;
  return undefined;
}

/** Lower case without accents: "São Tomé" → "sao tome". */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
