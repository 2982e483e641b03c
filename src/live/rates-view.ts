import type { TrackedCurrencies } from '../domain/currencies.js';
import { RatesSnapshot } from '../domain/snapshot.js';
import type { RatesStore } from '../storage/ports.js';

/**
 * The snapshot every request reads. Refreshing asks the store for its version and, only when it
 * moved, for the rows written since the version held: a daily run costs one small query.
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
    const { rows, version } = await this.store.rowsSince(held);
    this.current = this.current.withRows(rows, version, this.tracked.codes);
    return true;
  }
}
