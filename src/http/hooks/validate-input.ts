import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { sendError } from '../errors.js';

interface RouteSchemas {
  params?: ZodType;
  querystring?: ZodType;
}

/**
 * Validates path and query together so one 400 lists every failed rule, path parameters first
 * (SPEC's tables put `date` before `base` and `symbols`). Fastify's own validation would stop at
 * the first failing part, so its compiler is a pass-through and the same zod schemas, which also
 * document the routes, are applied here.
 */
export async function validateInput(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const schemas = (request.routeOptions.schema ?? {}) as RouteSchemas;
  const messages: string[] = [];
  const parsed: { params?: unknown; query?: unknown } = {};
  for (const [part, schema, input] of [
    ['params', schemas.params, request.params],
    ['query', schemas.querystring, request.query],
  ] as const) {
    if (!schema) continue;
    const result = schema.safeParse(input ?? {});
    if (result.success) parsed[part] = result.data;
    else messages.push(...result.error.issues.map((issue) => issue.message));
  }
  if (messages.length > 0) return sendError(reply, { statusCode: 400, messages, withErrorField: true });
  if ('params' in parsed) request.params = parsed.params;
  if ('query' in parsed) request.query = parsed.query;
  return undefined;
}
