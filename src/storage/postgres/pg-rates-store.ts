import type { EncodedSourceDay, SourceValue, SourceValueRow } from '../../domain/source-values.js';
import { mergeChanges } from '../merge-changes.js';
import type { MergeReport, RatesStore } from '../ports.js';
import { pgCall } from './pg-errors.js';
import { longQuery, readWithVersion, withTransaction, type PgClient, type PgPool } from './pg-pool.js';

/** Rows per INSERT: large enough that the ECB's full history (~218,000 rows) takes a dozen statements. */
const WRITE_CHUNK = 20_000;

const UPSERT = `INSERT INTO source_rates (source, day, currency, value, version)
  SELECT $1::text, day, currency, value, $5::bigint FROM unnest($2::text[], $3::text[], $4::text[]) AS input (day, currency, value)
  ON CONFLICT (source, day, currency) DO UPDATE SET value = excluded.value, version = excluded.version`;

/** Rebuilds the one-row-per-day copy of every day of source $1 the merge at version $2 wrote to. */
const REFRESH_DAYS = `INSERT INTO source_days (source, day, rates, version)
  SELECT source, day, string_agg(currency || '=' || value, ';' ORDER BY currency), $2::bigint FROM source_rates
  WHERE source = $1::text AND day IN (SELECT DISTINCT day FROM source_rates WHERE version = $2::bigint) GROUP BY source, day
  ON CONFLICT (source, day) DO UPDATE SET rates = excluded.rates, version = excluded.version`;

const SELECT_VERSION = "SELECT version FROM data_versions WHERE name = 'rates'";

/** PostgreSQL text cannot hold NUL, so it cannot occur inside a stored day or currency. */
const cell = (day: string, currency: string) => `${day}\u0000${currency}`;

export class PgRatesStore implements RatesStore {
  constructor(private readonly pool: PgPool) {}

  async merge(source: string, values: readonly SourceValue[]): Promise<MergeReport> {
    return pgCall(() => withTransaction(this.pool, (client) => this.mergeIn(client, source, values), { long: true }));
  }

  private async mergeIn(client: PgClient, source: string, values: readonly SourceValue[]): Promise<MergeReport> {
    // Locking the counter row serialises merges: each one diffs against what the previous wrote.
    const locked = await client.query<{ version: number }>(longQuery(`${SELECT_VERSION} FOR UPDATE`));
    let version = locked.rows[0]!.version;

    const days = [...new Set(values.map((row) => row.date))];
    const stored = new Map<string, string>();
    if (days.length > 0) {
      const result = await client.query<[string, string, string]>({
        text: 'SELECT day, currency, value FROM source_rates WHERE source = $1 AND day = ANY($2::text[])',
        values: [source, days],
        rowMode: 'array',
      });
      for (const [day, currency, value] of result.rows) stored.set(cell(day, currency), value);
    }

    const { added, changed, writes } = mergeChanges(values, (row) => row.value, (day, currency) => stored.get(cell(day, currency)));
    if (writes.length > 0) {
      const bumped = await client.query<{ version: number }>(
        "UPDATE data_versions SET version = version + 1 WHERE name = 'rates' RETURNING version",
      );
      version = bumped.rows[0]!.version;
      for (let start = 0; start < writes.length; start += WRITE_CHUNK) {
        const chunk = writes.slice(start, start + WRITE_CHUNK);
        await client.query(
          longQuery(UPSERT, [source, chunk.map((row) => row.date), chunk.map((row) => row.currency), chunk.map((row) => row.value), version]),
        );
      }
      await client.query(longQuery(REFRESH_DAYS, [source, version]));
    }
    return { days: days.length, rates: values.length, added, changed, version };
  }

  async version(): Promise<number> {
    return pgCall(async () => (await this.pool.query<{ version: number }>(SELECT_VERSION)).rows[0]!.version);
  }

  async rowsSince(version: number): Promise<{ rows: SourceValueRow[]; version: number }> {
    return pgCall(async () => {
      // A full read (version 0) may take longer than a request.
      const read = (client: PgClient) =>
        client.query<SourceValueRow>(
          longQuery('SELECT source, day AS date, currency, value FROM source_rates WHERE version > $1 ORDER BY source, day, currency', [version]),
        );
      const { value, version: current } = await readWithVersion(this.pool, 'rates', read, { long: version === 0 });
      return { rows: value.rows, version: current };
    });
  }

  async daysSince(version: number): Promise<{ days: EncodedSourceDay[]; version: number }> {
    return pgCall(async () => {
      const read = (client: PgClient) =>
        client.query<EncodedSourceDay>(longQuery('SELECT source, day AS date, rates FROM source_days WHERE version > $1', [version]));
      const { value, version: current } = await readWithVersion(this.pool, 'rates', read, { long: version === 0 });
      return { days: value.rows, version: current };
    });
  }

  async lastDay(source: string): Promise<string | null> {
    return pgCall(async () => {
      const result = await this.pool.query<{ last: string | null }>('SELECT max(day) AS last FROM source_days WHERE source = $1', [source]);
      return result.rows[0]?.last ?? null;
    });
  }
}
