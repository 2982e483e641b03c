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

/** DECISIONS §1.5: a well-formed amount that is zero or negative. */
export class AmountNotPositiveError extends Error {
  override name = 'AmountNotPositiveError';
  constructor() {
    super('amount must be a positive number');
  }
}
