import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TrackedCurrencies } from '../domain/currencies.js';
import type { RatesView } from '../live/rates-view.js';
import { render, sendRendered, type ResponseCache } from './response-cache.js';

/** What the routes read: the live rates, the served currencies, and the cache of 200 bodies. */
export interface RouteContext {
  view: RatesView;
  tracked: TrackedCurrencies;
  cache: ResponseCache;
}

/** Computes a 200 body from the current snapshot, remembers it for this URL, and sends it. */
export function answer(context: RouteContext, request: FastifyRequest, reply: FastifyReply, compute: () => unknown): FastifyReply {
  const version = context.view.snapshot.version;
  const rendered = render(compute());
  context.cache.set(version, request.url, rendered);
  return sendRendered(request, reply, rendered);
}

/**
 * The same without remembering the body: for conversions, whose URLs carry an amount and rarely
 * repeat; caching them would only churn the heap (and they compute in microseconds).
 */
export function answerUncached(request: FastifyRequest, reply: FastifyReply, compute: () => unknown): FastifyReply {
  return sendRendered(request, reply, render(compute()));
}

/**
 * preHandler, before validation: a URL answered before on the same data is answered again
 * from the cache (the same URL validates and computes to the same bytes).
 */
export function serveCached(context: RouteContext) {
  return async function cached(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const hit = context.cache.get(context.view.snapshot.version, request.url);
    return hit && sendRendered(request, reply, hit);
  };
}
