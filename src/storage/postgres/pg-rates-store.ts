import type { EncodedDay } from '../../domain/day-encoding.js';
import type { RateRow } from '../../domain/snapshot.js';
import { mergeChanges } from '../merge-changes.js';
import type { MergeReport, RatesStore } from '../ports.js';
import { pgCall } from './pg-errors.js';
import { longQuery, readWithVersion, withTransaction, type PgClient, type PgPool } from './pg-pool.js';

/** Rows per INSERT: large enough that the full history (~218,000 rows) takes a dozen statements. */
const WRITE_CHUNK = 20_000;

const UPSERT = `INSERT INTO rates (day, currency, rate, version)
  SELECT day, currency, rate, $4::bigint FROM unnest($1::text[], $2::text[], $3::text[]) AS input (day, currency, rate)
  ON CONFLICT (day, currency) DO UPDATE SET rate = excluded.rate, version = excluded.version`;

/** Rebuilds the one-row-per-day copy of every day the merge at version $1 wrote to. */
const REFRESH_DAYS = `INSERT INTO rate_days (day, rates, version)
  SELECT day, string_agg(currency || '=' || rate, ';' ORDER BY currency), $1::bigint FROM rates
  WHERE day IN (SELECT DISTINCT day FROM rates WHERE version = $1::bigint) GROUP BY day
  ON CONFLICT (day) DO UPDATE SET rates = excluded.rates, version = excluded.version`;

/** PostgreSQL text cannot hold NUL, so it cannot occur inside a stored day or currency. */
const cell = (day: string, currency: string) => `${day}\u0000${currency}`;

export class PgRatesStore implements RatesStore {
  constructor(private readonly pool: PgPool) {}

  async merge(rows: readonly RateRow[]): Promise<MergeReport> {
    return pgCall(() => withTransaction(this.pool, (client) => this.mergeIn(client, rows), { long: true }));
  }

  private async mergeIn(client: PgClient, rows: readonly RateRow[]): Promise<MergeReport> {
    // Locking the counter row serialises merges: each one diffs against what the previous wrote.
    const locked = await client.query<{ version: number }>(
      longQuery("SELECT version FROM data_versions WHERE name = 'rates' FOR UPDATE"),
    );
    let version = locked.rows[0]!.version;

    const days = [...new Set(rows.map((row) => row.date))];
    const stored = new Map<string, string>();
    if (days.length > 0) {
      const result = await client.query<[string, string, string]>({
        text: 'SELECT day, currency, rate FROM rates WHERE day = ANY($1::text[])',
        values: [days],
        rowMode: 'array',
      });
      for (const [day, currency, rate] of result.rows) stored.set(cell(day, currency), rate);
    }

    const { added, changed, writes } = mergeChanges(rows, (row) => row.rate, (day, currency) => stored.get(cell(day, currency)));
    if (writes.length > 0) {
      const bumped = await client.query<{ version: number }>(
        "UPDATE data_versions SET version = version + 1 WHERE name = 'rates' RETURNING version",
      );
      version = bumped.rows[0]!.version;
      for (let start = 0; start < writes.length; start += WRITE_CHUNK) {
        const chunk = writes.slice(start, start + WRITE_CHUNK);
        await client.query(
          longQuery(UPSERT, [chunk.map((row) => row.date), chunk.map((row) => row.currency), chunk.map((row) => row.rate), version]),
        );
      }
      await client.query(longQuery(REFRESH_DAYS, [version]));
    }
    return { days: days.length, rates: rows.length, added, changed, version };
  }

  async version(): Promise<number> {
    return pgCall(async () => {
      const result = await this.pool.query<{ version: number }>("SELECT version FROM data_versions WHERE name = 'rates'");
      return result.rows[0]!.version;
    });
  }

  async daysSince(version: number): Promise<{ days: EncodedDay[]; version: number }> {
    return pgCall(async () => {
      const read = (client: PgClient) => client.query<EncodedDay>(longQuery('SELECT day AS date, rates FROM rate_days WHERE version > $1', [version]));
      const { value, version: current } = await readWithVersion(this.pool, 'rates', read, { long: version === 0 });
      return { days: value.rows, version: current };
    });
  }

  async rowsSince(version: number): Promise<{ rows: RateRow[]; version: number }> {
    return pgCall(async () => {
      // Orders as the SQLite adapter's reads come out: the whole table in key order, or by
      // version and key after a version. A full load (startup) may take longer than a request.
      const read = (client: PgClient) =>
        version === 0
          ? client.query<RateRow>(longQuery('SELECT day AS date, currency, rate FROM rates ORDER BY day, currency'))
          : client.query<RateRow>('SELECT day AS date, currency, rate FROM rates WHERE version > $1 ORDER BY version, day, currency', [version]);
      const { value, version: current } = await readWithVersion(this.pool, 'rates', read, { long: version === 0 });
      return { rows: value.rows, version: current };
    });
  }
}
