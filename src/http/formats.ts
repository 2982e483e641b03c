import { JSON_TYPE } from './errors.js';

/** How a 200 body may be written: JSON always, CSV and NDJSON where an endpoint offers them (DECISIONS §14). */
export type Format = 'json' | 'csv' | 'ndjson';

/** The media type each format is negotiated by (Accept). */
export const MEDIA_TYPES: Record<Format, string> = { json: 'application/json', csv: 'text/csv', ndjson: 'application/x-ndjson' };

/** The Content-Type each format is sent with. */
export const CONTENT_TYPES: Record<Format, string> = {
  json: JSON_TYPE,
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};
