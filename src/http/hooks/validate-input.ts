import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { HttpError, sendError } from '../errors.js';

export interface RouteSchemas {
  params?: ZodType;
  querystring?: ZodType;
}

/** What validation gives: the parts as parsed, or the 400 that lists every failed rule. */
export type Validated = { ok: true; params: unknown; query: unknown } | { ok: false; error: HttpError };

/**
 * Validates path and query together so one 400 lists every failed rule, path parameters first
 * (SPEC's tables put `date` before `base` and `symbols`).
 */
export function validateParts(schemas: RouteSchemas, params: unknown, query: unknown): Validated {
  const messages: string[] = [];
  const parsed = { params, query };
  for (const [part, schema, input] of [
    ['params', schemas.params, params],
    ['query', schemas.querystring, query],
  ] as const) {
    if (!schema) continue;
    const result = schema.safeParse(input ?? {});
    if (result.success) parsed[part] = result.data;
    else messages.push(...result.error.issues.map((issue) => issue.message));
  }
  return messages.length > 0 ? { ok: false, error: new HttpError(400, messages) } : { ok: true, ...parsed };
}

/**
 * preHandler, after authentication and the quota (DECISIONS §1.4). Fastify's own validation would
 * stop at the first failing part, so its compiler is a pass-through and the same zod schemas,
 * which also document the routes, are applied here.
 */
export async function validateInput(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const result = validateParts((request.routeOptions.schema ?? {}) as RouteSchemas, request.params, request.query);
  if (!result.ok) return sendError(reply, result.error);
  request.params = result.params;
  request.query = result.query;
  return undefined;
}
