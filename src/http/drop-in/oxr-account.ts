import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { periodDays, usageOf } from '../../domain/quota.js';
import { REDACTED } from '../access-log.js';
import { defineEndpoint, type ApiEndpoint, type RatesData } from '../endpoints/endpoint.js';
import { code as codeText } from '../openapi/response-schemas.js';
import { documented, type RouteDoc } from '../openapi/route-docs.js';
import { render, sendBody, type RenderedBody } from '../response-cache.js';
import { dropInResponses, OXR } from './dialects.js';
import { appIdParameter } from './oxr-rates.js';

const OxrUsage = z
  .strictObject({
    status: z.literal(200).meta({ type: 'integer' }),
    data: z.strictObject({
      app_id: z.literal(REDACTED).describe('Never the key itself'),
      status: z.literal('active'),
      plan: z.strictObject({
        name: z.string(),
        quota: z.string().describe('The quota, for display'),
        update_frequency: z.string(),
        features: z.strictObject({ base: z.boolean(), symbols: z.boolean(), experimental: z.boolean(), 'time-series': z.boolean(), convert: z.boolean() }),
      }),
      usage: z.strictObject({
        requests: z.int().describe('Requests counted in the current quota period, this one included'),
        requests_quota: z.int(),
        requests_remaining: z.int(),
        days_elapsed: z.int().describe('Whole days of the period gone by'),
        days_remaining: z.int().describe('Days left in the period, the current one included'),
        daily_average: z.int().describe('requests / (days_elapsed + 1), rounded down'),
      }),
    }),
  })
  .meta({ id: 'OxrUsage', description: "The key's quota period in OXR's shape (OXR's month is our period)" });

/** GET /api/usage.json: the key's quota and use, counted like any request (DECISIONS §10, §16). */
export const oxrUsageEndpoint = defineEndpoint({
  path: '/api/usage.json',
  query: z.object({ app_id: appIdParameter }),
  cacheable: false,
  doc: {
    tags: [OXR.tag],
    conditional: true,
    operationId: 'oxrUsage',
    summary: 'Open Exchange Rates: usage',
    description: "As OXR `usage.json`: the key's quota and its use in the current period, this request included.",
    responses: dropInResponses(OXR, { body: OxrUsage, description: 'The usage' }, undefined, { validated: false, keyed: true }),
  },
  body: (_data, _input, { policy, decision, now }) => {
    const usage = usageOf(policy, decision);
    const days = periodDays(policy, decision, now);
    return {
      status: 200,
      data: {
        app_id: REDACTED,
        status: 'active',
        plan: {
          name: 'currency-rates',
          quota: `${policy.limit} requests per ${policy.periodMs / 86_400_000} days`,
          update_frequency: 'daily',
          features: { base: true, symbols: true, experimental: false, 'time-series': true, convert: true },
        },
        usage: {
          requests: usage.used,
          requests_quota: usage.limit,
          requests_remaining: usage.remaining,
          days_elapsed: days.elapsed,
          days_remaining: days.remaining,
          daily_average: Math.floor(usage.used / (days.elapsed + 1)),
        },
      },
    };
  },
});

const OxrCurrencies = z
  .record(codeText, z.string())
  .meta({ id: 'OxrCurrencies', description: 'Every served currency: code → English name (CLDR)', examples: [{ EUR: 'Euro', USD: 'US Dollar' }] });

const CURRENCIES_DOC: RouteDoc = {
  tags: [OXR.tag],
  security: [],
  conditional: true,
  operationId: 'oxrCurrencies',
  summary: 'Open Exchange Rates: currencies (no key)',
  description: 'As OXR `currencies.json`, which OXR serves to anyone: no key, not counted.',
  responses: dropInResponses(OXR, { body: OxrCurrencies, description: 'The currencies' }, undefined, { validated: false, keyed: false }),
};

const OXR_CURRENCIES_PATH = '/api/currencies.json';

/**
 * GET /api/currencies.json: public like OXR's (DECISIONS §16), so registered outside the key and
 * quota hooks and outside the keyed routes' answering (api-routes.ts), which serves counted requests only.
 */
export function oxrCurrenciesRoute(app: FastifyInstance, { tracked }: Pick<RatesData, 'tracked'>): void {
  let body: RenderedBody | undefined;
  app.get(OXR_CURRENCIES_PATH, documented(CURRENCIES_DOC), (request, reply) => {
    body ??= render(Object.fromEntries(tracked.list.map(({ code, name }) => [code, name])));
    return sendBody(request, reply, body);
  });
}

/** The route as the endpoint lists see it (its 405s and preflight). */
export const oxrCurrenciesEndpoint = (data: Pick<RatesData, 'tracked'>): ApiEndpoint => ({
  path: OXR_CURRENCIES_PATH,
  cacheable: true,
  formats: ['json'],
  route: (app) => oxrCurrenciesRoute(app, data),
});
