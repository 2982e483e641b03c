import type { SourceDescription, SourceStatus, StoredSpan } from '../domain/source-values.js';
import type { RatesStore, SourceRatesStore } from '../storage/ports.js';

/** The ECB's id: its figures live in the rates store, every other source's in the source rates store. */
const ECB = 'ecb';

/**
 * What GET /sources answers, kept in memory: each enabled source (SOURCES order) with its stored
 * codes and days. Refreshing polls the versions of the stores it reads and reads a summary only
 * from a store whose version moved, so a request never queries the database.
 */
export class SourcesView {
  private ecbVersion = -1;
  private othersVersion = -1;
  private ecbSpan: StoredSpan | null = null;
  private otherSpans = new Map<string, StoredSpan>();
  private current: readonly SourceStatus[];

  constructor(
    private readonly stores: { rates: RatesStore; sourceRates: SourceRatesStore },
    private readonly enabled: readonly SourceDescription[],
  ) {
    this.current = this.build();
  }

  get statuses(): readonly SourceStatus[] {
    return this.current;
  }

  /** True when a summary was reloaded. */
  async refresh(): Promise<boolean> {
    const ids = this.enabled.map((source) => source.id);
    const [ecbMoved, othersMoved] = await Promise.all([
      ids.includes(ECB) ? this.refreshEcb() : false,
      ids.some((id) => id !== ECB) ? this.refreshOthers() : false,
    ]);
    if (!ecbMoved && !othersMoved) return false;
    this.current = this.build();
    return true;
  }

  private async refreshEcb(): Promise<boolean> {
    if ((await this.stores.rates.version()) === this.ecbVersion) return false;
    const { span, version } = await this.stores.rates.summary();
    this.ecbSpan = span;
    this.ecbVersion = version;
    return true;
  }

  private async refreshOthers(): Promise<boolean> {
    if ((await this.stores.sourceRates.version()) === this.othersVersion) return false;
    const { sources, version } = await this.stores.sourceRates.summary();
    this.otherSpans = new Map(sources.map(({ source, ...span }) => [source, span]));
    this.othersVersion = version;
    return true;
  }

  private build(): readonly SourceStatus[] {
    return this.enabled.map((source) => {
      const span = source.id === ECB ? this.ecbSpan : this.otherSpans.get(source.id);
      return { ...source, codes: span?.codes ?? [], firstDay: span?.firstDay ?? null, lastDay: span?.lastDay ?? null };
    });
  }
}
