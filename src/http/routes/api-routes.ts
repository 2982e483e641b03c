import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import type { SourceDescription } from '../../domain/source-values.js';
import type { RatesView } from '../../live/rates-view.js';
import { API_ENDPOINTS } from '../endpoints/api-endpoints.js';
import type { ApiEndpoint, Representation, Respond } from '../endpoints/endpoint.js';
import { JSON_TYPE } from '../errors.js';
import { CSV_TYPE, render, renderText, sendBody, type RenderedBody, type ResponseCache } from '../response-cache.js';

export interface ApiRouteDeps {
  view: RatesView;
  /** The enabled sources, in SOURCES order (GET /sources). */
  sources: readonly SourceDescription[];
  tracked: TrackedCurrencies;
  cache: ResponseCache;
}

/** JSON first: what a request without Accept, or accepting anything, gets. */
const MEDIA_TYPES = ['application/json', 'text/csv'];

/** Whether the client prefers CSV to JSON; an Accept naming neither gets JSON, as no Accept does. */
function prefersCsv(request: FastifyRequest): boolean {
  return new Negotiator(request.raw).mediaType(MEDIA_TYPES) === 'text/csv';
}

function rendered(representation: Representation): RenderedBody {
  if ('value' in representation) return render(representation.value);
  return renderText(representation.text, representation.type === 'csv' ? CSV_TYPE : JSON_TYPE);
}

/**
 * The API's GET routes, one per endpoint of the list, each validating its input first
 * (endpoint.ts). A cacheable endpoint's body is computed once per URL, representation and data
 * version, then sent again as it is.
 */
export function apiRoutes(app: FastifyInstance, { view, sources, tracked, cache }: ApiRouteDeps, endpoints: readonly ApiEndpoint[] = API_ENDPOINTS): void {
  const respond: Respond = (request, reply, endpoint, compute) => {
    const snapshot = view.snapshot;
    const csv = endpoint.csv && prefersCsv(request);
    if (endpoint.csv) reply.header('vary', 'Accept');
    const key = csv ? `csv ${request.url}` : request.url;
    let body = endpoint.cacheable ? cache.get(snapshot.version, key) : undefined;
    if (!body) {
      if (request.counted === undefined) throw new Error('the API routes run after countRequest');
      body = rendered(compute({ snapshot, tracked, sources }, request.counted, csv));
      if (endpoint.cacheable) cache.set(snapshot.version, key, body);
    }
    return sendBody(request, reply, body);
  };
  for (const endpoint of endpoints) endpoint.route(app, respond);
}
