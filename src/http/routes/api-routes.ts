import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import type { RatesView } from '../../live/rates-view.js';
import type { SourceDescription } from '../../domain/source-values.js';
import { API_ENDPOINTS, type Endpoint } from '../endpoints.js';
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

/**
 * The API's GET routes, one per endpoint of the table; their input is validated by the
 * validateInput hook first. A cacheable endpoint's body is computed once per URL, representation
 * and data version, then sent again as it is.
 */
export function apiRoutes(app: FastifyInstance, { view, sources, tracked, cache }: ApiRouteDeps): void {
  for (const endpoint of API_ENDPOINTS) {
    const schema = Object.keys(endpoint.schema).length > 0 ? { schema: endpoint.schema } : {};
    app.get(endpoint.url, schema, (request, reply) => {
      const snapshot = view.snapshot;
      const csv = endpoint.csv !== undefined && prefersCsv(request);
      if (endpoint.csv) reply.header('vary', 'Accept');
      const key = csv ? `csv ${request.url}` : request.url;
      let body = endpoint.cacheable ? cache.get(snapshot.version, key) : undefined;
      if (!body) {
        if (request.counted === undefined) throw new Error('the API routes run after countRequest');
        body = rendered(endpoint, endpoint.body({ snapshot, tracked, sources }, request.params, request.query, request.counted), csv);
        if (endpoint.cacheable) cache.set(snapshot.version, key, body);
      }
      return sendBody(request, reply, body);
    });
  }
}

function rendered(endpoint: Endpoint, body: unknown, csv: boolean): RenderedBody {
  if (csv && endpoint.csv) return renderText(endpoint.csv(body), CSV_TYPE);
  return endpoint.json ? renderText(endpoint.json(body), JSON_TYPE) : render(body);
}
