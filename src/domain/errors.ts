/** Outcomes the domain reports and the HTTP layer turns into the spec's 400 and 404 answers. */
export class UnknownCurrencyError extends Error {
  override name = 'UnknownCurrencyError';
  constructor(readonly code: string) {
    super(`Unknown currency: ${code}`);
  }
}

export class NoDataError extends Error {
  override name = 'NoDataError';
  /** `date` is set when a specific day was asked for. */
  constructor(readonly date?: string) {
    super(date ? `No exchange rate data available for ${date}` : 'No exchange rate data has been ingested yet');
  }
}

/** DECISIONS §8: no day of a range has data (an open range has no `end`). */
export class NoDataInRangeError extends Error {
  override name = 'NoDataInRangeError';
  constructor(start: string, end: string | undefined) {
    super(end === undefined ? `No exchange rate data available from ${start}` : `No exchange rate data available between ${start} and ${end}`);
  }
}

/** DECISIONS §1.5: a well-formed amount that is zero or negative. */
export class AmountNotPositiveError extends Error {
  override name = 'AmountNotPositiveError';
  constructor() {
    super('amount must be a positive number');
  }
}
