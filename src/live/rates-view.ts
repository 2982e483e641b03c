import type { TrackedCurrencies } from '../domain/currencies.js';
import { RatesSnapshot } from '../domain/snapshot.js';
import type { RatesStore } from '../storage/ports.js';

/**
 * The snapshot every request reads. Refreshing asks the store for its version and, only when it
 * moved, for the days written since the version held: a daily run costs one small query.
 */
export class RatesView {
  private current = RatesSnapshot.empty();

  constructor(
    private readonly store: RatesStore,
    private readonly tracked: TrackedCurrencies,
  ) {}

  get snapshot(): RatesSnapshot {
    return this.current;
  }

  /** True when new data was loaded. */
  async refresh(): Promise<boolean> {
    const held = this.current.version;
    if ((await this.store.version()) === held) return false;
    const { days, version } = await this.store.daysSince(held);
    this.current = this.current.withDays(days, version, this.tracked.codes);
    return true;
  }
}
