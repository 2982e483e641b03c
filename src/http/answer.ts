import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TrackedCurrencies } from '../domain/currencies.js';
import type { RatesView } from '../live/rates-view.js';
import { API_ENDPOINTS, type Endpoint } from './endpoints.js';
import { render, sendRendered, type RenderedBody, type ResponseCache } from './response-cache.js';

/** What the routes read: the live rates, the served currencies, and the cache of 200 bodies. */
export interface RouteContext {
  view: RatesView;
  tracked: TrackedCurrencies;
  cache: ResponseCache;
}

/**
 * The 200 body answered before for this URL on the current data (the same URL computes to the
 * same bytes). Only a cacheable endpoint's are kept (bodyFor), so no other URL is looked up: a
 * conversion's carries its amount, and the lookup would only hash it.
 */
export function cachedBody(context: RouteContext, endpoint: Endpoint, url: string): RenderedBody | undefined {
  return endpoint.cacheable ? context.cache.get(context.view.snapshot.version, url) : undefined;
}

/**
 * Computes an endpoint's 200 body from validated input on the current snapshot, and remembers it
 * for this URL when the endpoint is cacheable. Both ways in (the routes, the fast path) answer
 * through this and cachedBody. Throws what the endpoint's compute throws.
 */
export function bodyFor(context: RouteContext, endpoint: Endpoint, url: string, params: unknown, query: unknown): RenderedBody {
  const version = context.view.snapshot.version;
  const body = render(endpoint.compute(context, params, query));
  if (endpoint.cacheable) context.cache.set(version, url, body);
  return body;
}

/** preHandler, before validation: a URL answered before on the same data is answered again from the cache. */
export function serveCached(context: RouteContext) {
  const byRoute = new Map(API_ENDPOINTS.map((endpoint) => [endpoint.url, endpoint]));
  return async function cached(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const endpoint = byRoute.get(request.routeOptions.url ?? '');
    const hit = endpoint && cachedBody(context, endpoint, request.url);
    return hit && sendRendered(request, reply, hit);
  };
}
