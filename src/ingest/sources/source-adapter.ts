/**
 * One day of a source, in the source's own terms (`SourceTerms`): for each currency c, P(c) =
 * units of the source's base currency per ONE unit of c (the bank's nominal divided out), or for
 * a `units-per-base` source (or code, `termsByCode`) units of c per 1 base unit, as canonical
 * decimal text. The base itself is implicit and never listed.
 */
export interface SourceDay {
  date: string;                 // YYYY-MM-DD, the day the values are effective
  values: Map<string, string>;  // currency code -> P(c), canonical decimal text
}

/** When a bank publishes, in its own words: a local time in its own time zone, on some weekdays. */
export interface PublicationSchedule {
  /** HH:MM local time by which the day's values are out. */
  readonly localTime: string;
  /** IANA zone of that local time. */
  readonly timeZone: string;
  /** ISO weekdays (1 = Monday … 7 = Sunday) on which the bank publishes. */
  readonly weekdays: readonly number[];
  /** What the bank says, for operators (e.g. "table B on Wednesdays"). */
  readonly note: string;
}

/** An inclusive range of days, YYYY-MM-DD, for feeds that take one. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * One HTTP request for a document where a GET of a URL is not what the bank's endpoint answers: a
 * POST with its body (a SOAP call, a JSON query), or a header the API insists on.
 */
export interface SourceRequest {
  readonly url: string;
  /** GET when absent. */
  readonly method?: 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** What the request asks for, telling apart several sent to one URL (BCU: one per currency). */
  readonly label?: string;
}

/**
 * Terms of a source's values. `base-per-unit`: P(c) as above (most banks).
 * `units-per-base`: units of c per 1 base unit, as written: the ECB's reference rates as the
 * service has always stored and served them, and the banks quoting the same way (Banca d'Italia
 * per 1 EUR, the Bank of England per 1 GBP, the RBA per 1 AUD).
 */
export type SourceTerms = 'base-per-unit' | 'units-per-base';

/**
 * A rate source: everything the service needs to know of one bank. Adding a source is one file
 * exporting one of these, listed in registry.ts, and its test.
 */
export interface SourceAdapter {
  /** Lower-case id used in SOURCES and `ingest --source`. */
  readonly id: string;
  readonly name: string;
  /** ISO code of the currency the bank quotes against. */
  readonly base: string;
  readonly terms: SourceTerms;
  /**
   * The codes the bank quotes the other way round from `terms`, with their terms, each figure
   * stored as written and divided exactly when served (the SARB: rand per US dollar, pound and
   * euro, but krone, yen … per rand). None for most banks.
   */
  readonly termsByCode?: ReadonlyMap<string, SourceTerms>;
  /** ISO 3166 alpha-2 country of the bank ("EU" for the ECB); null for an international body (IMF). */
  readonly country: string | null;
  /** What the number is, in the bank's sense: "reference", "official fixing", "average of the day", … */
  readonly rateType: string;
  /** How often the bank publishes: "daily", "weekly", "monthly". */
  readonly cadence: string;
  /** The first day the bank's feed publishes (YYYY-MM-DD), when known. */
  readonly publishesFrom: string | null;
  /**
   * The currencies the source publishes (its base among them; EUR always, since every rate is
   * per 1 EUR): with more sources than the ECB enabled, the tracked set is their union
   * (DECISIONS §9). A test holds each list to the codes of the source's recorded files.
   */
  readonly codes: readonly string[];
  /** The bank's public page describing the feed (for /sources). */
  readonly homepage: string;
  readonly schedule: PublicationSchedule;
  /**
   * The URLs to fetch for the latest publication, or for `range` where the feed takes one. A
   * source published as several documents (NBP tables A and B) gives one URL per document; their
   * days are combined.
   */
  urls(range?: DayRange): string[];
  /**
   * The longest range, in days, one request of `urls(range)` may ask for, where the bank limits
   * it (NBP: 93). A longer range is asked as consecutive ranges of at most this many days.
   */
  readonly maxRangeDays?: number;
  /**
   * The requests themselves, where a GET of each URL is not enough (a POST, a header): for the
   * latest publication, or for `range`. Their URLs are `urls`'s. Fetching uses these when given.
   */
  requests?(range?: DayRange): SourceRequest[];
  /**
   * Documents of the source that can be fetched by name (`ingest --source NAME`, INGEST_ON_EMPTY):
   * the ECB's daily, 90-day and full-history files. Names are unique across sources.
   */
  readonly feeds?: Readonly<Record<string, string>>;
  /**
   * The HTTP status the feed answers a range without a publication with, where it does not send
   * an empty document instead (NBP: 404, "Brak danych").
   */
  readonly emptyRangeStatus?: number;
  /**
   * Parses one document of the source, all or nothing: malformed input throws
   * IngestFormatError naming `origin` and the day and currency at fault. Days come back sorted,
   * oldest first.
   */
  parse(bytes: Buffer, origin: string): Promise<SourceDay[]>;
}
