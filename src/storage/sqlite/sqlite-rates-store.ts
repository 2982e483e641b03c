import type { EncodedDay } from '../../domain/day-encoding.js';
import type { RateRow } from '../../domain/snapshot.js';
import { mergeChanges } from '../merge-changes.js';
import type { MergeReport, RatesStore } from '../ports.js';
import { statement, type SqliteDb } from './connection.js';

export class SqliteRatesStore implements RatesStore {
  private readonly selectRate;
  private readonly upsertRate;
  private readonly bumpVersion;
  private readonly selectVersion;
  private readonly selectSince;
  private readonly selectAll;
  private readonly refreshDays;
  private readonly selectDaysSince;

  constructor(private readonly db: SqliteDb) {
    this.selectRate = statement(db, 'SELECT rate FROM rates WHERE day = ? AND currency = ?').pluck();
    this.upsertRate = statement(db, `INSERT INTO rates (day, currency, rate, version) VALUES (?, ?, ?, ?)
      ON CONFLICT (day, currency) DO UPDATE SET rate = excluded.rate, version = excluded.version`);
    this.bumpVersion = statement(db, "UPDATE data_versions SET version = version + 1 WHERE name = 'rates' RETURNING version").pluck();
    this.selectVersion = statement(db, "SELECT version FROM data_versions WHERE name = 'rates'").pluck();
    this.selectSince = statement(db, 'SELECT day AS date, currency, rate FROM rates WHERE version > ?');
    // A full load reads the table in key order; going through the version index would cost a
    // lookup per row.
    this.selectAll = statement(db, 'SELECT day AS date, currency, rate FROM rates');
    // Rebuilds the one-row-per-day copy of every day this merge wrote to.
    this.refreshDays = statement(db, `INSERT INTO rate_days (day, rates, version)
      SELECT day, group_concat(currency || '=' || rate, ';'), @version FROM rates
      WHERE day IN (SELECT DISTINCT day FROM rates WHERE version = @version) GROUP BY day
      ON CONFLICT (day) DO UPDATE SET rates = excluded.rates, version = excluded.version`);
    this.selectDaysSince = statement(db, 'SELECT day AS date, rates FROM rate_days WHERE version > ?');
  }

  async merge(rows: readonly RateRow[]): Promise<MergeReport> {
    return this.db.transaction(() => {
      const { added, changed, writes } = mergeChanges(
        rows,
        (row) => row.rate,
        (date, currency) => this.selectRate.get(date, currency) as string | undefined,
      );
      let version = this.selectVersion.get() as number;
      if (writes.length > 0) {
        version = this.bumpVersion.get() as number;
        for (const row of writes) this.upsertRate.run(row.date, row.currency, row.rate, version);
        this.refreshDays.run({ version });
      }
      return { days: new Set(rows.map((row) => row.date)).size, rates: rows.length, added, changed, version };
    }).immediate();
  }

  async version(): Promise<number> {
    return this.selectVersion.get() as number;
  }

  async daysSince(version: number): Promise<{ days: EncodedDay[]; version: number }> {
    return this.db.transaction(() => ({
      days: this.selectDaysSince.all(version) as EncodedDay[],
      version: this.selectVersion.get() as number,
    }))();
  }

  async rowsSince(version: number): Promise<{ rows: RateRow[]; version: number }> {
    // One read transaction, so the rows and the version come from the same state of the file.
    return this.db.transaction(() => ({
      rows: (version === 0 ? this.selectAll.all() : this.selectSince.all(version)) as RateRow[],
      version: this.selectVersion.get() as number,
    }))();
  }
}
