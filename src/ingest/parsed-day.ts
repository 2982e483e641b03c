/** One day of ECB reference rates: units of currency per 1 EUR. */
export interface ParsedDay {
  date: string;                 // YYYY-MM-DD
  rates: Map<string, string>;   // currency code (3 upper-case letters) -> canonical decimal string
}

/** Malformed input. The message names the source and where (line number for CSV, element/date for XML, member for ZIP). */
export class IngestFormatError extends Error { override name = 'IngestFormatError'; }
