import { rangePieces } from './sources/day-range.js';
import type { DayRange, SourceAdapter, SourceRequest } from './sources/source-adapter.js';

/**
 * What is sent for a source's latest publication or for `range`: its own requests, else a GET of
 * each URL; a range longer than the source's `maxRangeDays` as consecutive pieces, oldest first.
 */
export function sourceRequests(adapter: SourceAdapter, range?: DayRange): SourceRequest[] {
  if (range === undefined || adapter.maxRangeDays === undefined) return requestsOf(adapter, range);
  return rangePieces(range, adapter.maxRangeDays).flatMap((piece) => requestsOf(adapter, piece));
}

function requestsOf(adapter: SourceAdapter, range?: DayRange): SourceRequest[] {
  return adapter.requests?.(range) ?? adapter.urls(range).map((url) => ({ url }));
}

/**
 * The source's latest publication asked of `url` instead of the bank (`ingest --url`, a mirror, a
 * test's server): a GET of it, or the source's own requests (method, headers, body), each sent there.
 */
export function requestsAt(adapter: SourceAdapter, url: string): SourceRequest[] {
  return adapter.requests?.().map((request) => ({ ...request, url })) ?? [{ url }];
}
