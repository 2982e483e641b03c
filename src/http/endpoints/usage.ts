import { z } from 'zod';
import { usageOf } from '../../domain/quota.js';
import { apiResponses } from '../openapi/route-docs.js';
import { defineEndpoint } from './endpoint.js';


const isoSecond = (description: string, example: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    .meta({ format: 'date-time', description, examples: [example] });

export const Usage = z
  .strictObject({
    limit: z.int().min(1).describe("The key's quota: requests per period (X-RateLimit-Limit)"),
    used: z.int().min(1).describe('Requests counted in the current period, this one included'),
    remaining: z.int().min(0).describe('limit − used (X-RateLimit-Remaining)'),
    period_start: isoSecond("When the period began (the key's first request in it), to the second, rounded up: period_end − the period", '2026-11-02T08:14:06Z'),
    period_end: isoSecond('When the period ends (X-RateLimit-Reset), to the second, rounded up', '2026-12-02T08:14:06Z'),
  })
  .meta({
    id: 'Usage',
    description: "The calling key's quota and its use in the current period, this request included",
    examples: [{ limit: 1000, used: 42, remaining: 958, period_start: '2026-11-02T08:14:06Z', period_end: '2026-12-02T08:14:06Z' }],
  });

/** The calling key's quota and its use. */
export const usageEndpoint = defineEndpoint({
  path: '/api/v1/usage',
  // DECISIONS §10: counted like any request, so the answer includes itself; never the same twice.
  cacheable: false,
  doc: {
    operationId: 'getUsage',
    summary: "The key's quota and usage",
    description:
      "The calling key's quota (its own, else the server's default), how much of it the current period has used, this " +
      'request included (it counts like any other), and when the period began and ends. The numbers are those of the ' +
      "answer's X-RateLimit headers; once the quota is used up the answer is the 429.",
    tags: ['Usage'],
    conditional: true,
    responses: apiResponses({ body: Usage, description: 'The usage' }, undefined, false),
  },
  body: (_data, _input, { policy, decision }) => usageOf(policy, decision),
});
