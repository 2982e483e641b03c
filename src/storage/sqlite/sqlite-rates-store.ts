import type { EncodedSourceDay, SourceValue, SourceValueRow } from '../../domain/source-values.js';
import { mergeChanges } from '../merge-changes.js';
import type { MergeReport, RatesStore } from '../ports.js';
import { statement, type SqliteDb } from './connection.js';

export class SqliteRatesStore implements RatesStore {
  private readonly selectValue;
  private readonly upsertValue;
  private readonly bumpVersion;
  private readonly selectVersion;
  private readonly selectSince;
  private readonly refreshDays;
  private readonly selectDaysSince;
  private readonly selectLastDay;

  constructor(private readonly db: SqliteDb) {
    this.selectValue = statement(db, 'SELECT value FROM source_rates WHERE source = ? AND day = ? AND currency = ?').pluck();
    this.upsertValue = statement(db, `INSERT INTO source_rates (source, day, currency, value, version) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (source, day, currency) DO UPDATE SET value = excluded.value, version = excluded.version`);
    this.bumpVersion = statement(db, "UPDATE data_versions SET version = version + 1 WHERE name = 'rates' RETURNING version").pluck();
    this.selectVersion = statement(db, "SELECT version FROM data_versions WHERE name = 'rates'").pluck();
    this.selectSince = statement(db, 'SELECT source, day AS date, currency, value FROM source_rates WHERE version > ? ORDER BY source, day, currency');
    // Rebuilds the one-row-per-day copy of every day of the source this merge wrote to.
    this.refreshDays = statement(db, `INSERT INTO source_days (source, day, rates, version)
      SELECT source, day, group_concat(currency || '=' || value, ';'), @version FROM source_rates
      WHERE source = @source AND day IN (SELECT DISTINCT day FROM source_rates WHERE version = @version) GROUP BY source, day
      ON CONFLICT (source, day) DO UPDATE SET rates = excluded.rates, version = excluded.version`);
    this.selectDaysSince = statement(db, 'SELECT source, day AS date, rates FROM source_days WHERE version > ?');
    this.selectLastDay = statement(db, 'SELECT max(day) FROM source_days WHERE source = ?').pluck();
  }

  async merge(source: string, values: readonly SourceValue[]): Promise<MergeReport> {
    return this.db.transaction(() => {
      const { added, changed, writes } = mergeChanges(
        values,
        (row) => row.value,
        (date, currency) => this.selectValue.get(source, date, currency) as string | undefined,
      );
      let version = this.selectVersion.get() as number;
      if (writes.length > 0) {
        version = this.bumpVersion.get() as number;
        for (const row of writes) this.upsertValue.run(source, row.date, row.currency, row.value, version);
        this.refreshDays.run({ source, version });
      }
      return { days: new Set(values.map((row) => row.date)).size, rates: values.length, added, changed, version };
    }).immediate();
  }

  async version(): Promise<number> {
    return this.selectVersion.get() as number;
  }

  async rowsSince(version: number): Promise<{ rows: SourceValueRow[]; version: number }> {
    // One read transaction, so the rows and the version come from the same state of the file.
    return this.db.transaction(() => ({
      rows: this.selectSince.all(version) as SourceValueRow[],
      version: this.selectVersion.get() as number,
    }))();
  }

  async daysSince(version: number): Promise<{ days: EncodedSourceDay[]; version: number }> {
    return this.db.transaction(() => ({
      days: this.selectDaysSince.all(version) as EncodedSourceDay[],
      version: this.selectVersion.get() as number,
    }))();
  }

  async lastDay(source: string): Promise<string | null> {
    return (this.selectLastDay.get(source) as string | null | undefined) ?? null;
  }
}
