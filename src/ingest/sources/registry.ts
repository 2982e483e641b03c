import { DEFAULT_TRACKED } from '../../domain/currencies.js';
import { bcb } from './bcb.js';
import { bcra } from './bcra.js';
import { bcu } from './bcu.js';
import { bdi } from './bdi.js';
import { bna } from './bna.js';
import { bnm } from './bnm.js';
import { bnr } from './bnr.js';
import { boc } from './boc.js';
import { boe } from './boe.js';
import { bom } from './bom.js';
import { cba } from './cba.js';
import { cbr } from './cbr.js';
import { cbu } from './cbu.js';
import { cnb } from './cnb.js';
import { dnb } from './dnb.js';
import { ecb } from './ecb.js';
import { hkma } from './hkma.js';
import { hnb } from './hnb.js';
import { imf } from './imf.js';
import { mnb } from './mnb.js';
import { nb } from './nb.js';
import { nbe } from './nbe.js';
import { nbg } from './nbg.js';
import { nbk } from './nbk.js';
import { nbkr } from './nbkr.js';
import { nbm } from './nbm.js';
import { nbp } from './nbp.js';
import { nbrb } from './nbrb.js';
import { nbt } from './nbt.js';
import { nbu } from './nbu.js';
import { rb } from './rb.js';
import { rba } from './rba.js';
import { sarb } from './sarb.js';
import { sbi } from './sbi.js';
import type { SourceAdapter } from './source-adapter.js';

/** Every rate source the service knows, by id. A new source is one file and one line here. */
export const SOURCE_ADAPTERS: readonly SourceAdapter[] = [
  ecb, nbp, cnb, boc, cbr, nbu,
  bdi, boe, rba, nb, rb, dnb, bnr, mnb, bcb, nbg, nbk, nbrb, imf, hkma,
  sarb, cbu, bna, bcra, bom, nbm, sbi, nbe, hnb, cba, nbt, bcu, nbkr, bnm,
];

export const SOURCE_IDS: readonly string[] = SOURCE_ADAPTERS.map((adapter) => adapter.id);

/**
 * SOURCES=all (DECISIONS §15, docs/api.md "More sources"): every source, the ECB first, then by
 * breadth (most codes first; registry order on a tie). Each code's home bank, the one whose base
 * it is, is ranked right after the ECB per code by the blend (ALL_SOURCES_LEADER): no one list can
 * put every home bank first, as the Bank of Russia quotes KZT and the National Bank of Kazakhstan RUB.
 */
export const ALL_SOURCES_LEADER = 'ecb';
export const ALL_SOURCES: readonly string[] = [
  ALL_SOURCES_LEADER,
  ...SOURCE_ADAPTERS.filter(({ id }) => id !== ALL_SOURCES_LEADER)
    .sort((a, b) => b.codes.length - a.codes.length)
    .map(({ id }) => id),
];

export function sourceAdapter(id: string): SourceAdapter | undefined {
  return SOURCE_ADAPTERS.find((adapter) => adapter.id === id);
}

/** A document fetched by name (`ecb-hist` …: SourceAdapter.feeds), with the source it belongs to. */
export interface NamedFeed {
  adapter: SourceAdapter;
  url: string;
}

/** Every source's named feeds, by name. */
const FEEDS = new Map<string, NamedFeed>(
  SOURCE_ADAPTERS.flatMap((adapter) => Object.entries(adapter.feeds ?? {}).map(([name, url]) => [name, { adapter, url }] as const)),
);

export const FEED_NAMES: readonly string[] = [...FEEDS.keys()];

export function namedFeed(name: string): NamedFeed | undefined {
  return FEEDS.get(name);
}

/**
 * The tracked set when CURRENCIES is not set (DECISIONS §9): the ECB's reference set with only the
 * ECB enabled, else every code an enabled source publishes, and EUR.
 */
export function defaultTracked(ids: readonly string[]): string[] {
  if (ids.length === 1 && ids[0] === 'ecb') return [...DEFAULT_TRACKED];
  const codes = new Set<string>(['EUR']);
  for (const id of ids) for (const code of sourceAdapter(id)?.codes ?? []) codes.add(code);
  return [...codes].sort();
}
