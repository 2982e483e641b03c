import type { FastifyInstance } from 'fastify';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import type { RatesView } from '../../live/rates-view.js';
import { API_ENDPOINTS } from '../endpoints.js';
import { render, sendBody, type ResponseCache } from '../response-cache.js';

export interface ApiRouteDeps {
  view: RatesView;
  tracked: TrackedCurrencies;
  cache: ResponseCache;
}

/**
 * The API's GET routes, one per endpoint of the table; their input is validated by the
 * validateInput hook first. A cacheable endpoint's body is computed once per URL and data
 * version, then sent again as it is.
 */
export function apiRoutes(app: FastifyInstance, { view, tracked, cache }: ApiRouteDeps): void {
  for (const endpoint of API_ENDPOINTS) {
    const schema = Object.keys(endpoint.schema).length > 0 ? { schema: endpoint.schema } : {};
    app.get(endpoint.url, schema, (request, reply) => {
      const snapshot = view.snapshot;
      let body = endpoint.cacheable ? cache.get(snapshot.version, request.url) : undefined;
      if (!body) {
        if (request.counted === undefined) throw new Error('the API routes run after countRequest');
        body = render(endpoint.body({ snapshot, tracked }, request.params, request.query, request.counted));
        if (endpoint.cacheable) cache.set(snapshot.version, request.url, body);
      }
      return sendBody(request, reply, body);
    });
  }
}
