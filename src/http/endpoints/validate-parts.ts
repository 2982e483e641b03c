import type { z } from 'zod';
import { HttpError } from '../errors.js';

/** What validation gives: the parts as parsed, or the 400 that lists every failed rule. */
export type Validated<P, Q> = { ok: true; params: P; query: Q } | { ok: false; error: HttpError };

/**
 * Validates path and query together so one 400 lists every failed rule, path parameters first
 * (SPEC's tables put `date` before `base` and `symbols`). A part without a schema is passed on as
 * it came. Fastify's own validation would stop at the first failing part, so its compiler is a
 * pass-through (app.ts) and the same zod schemas, which also document the routes, are applied here.
 */
export function validateParts<P extends z.ZodType, Q extends z.ZodType>(
  schemas: { params?: P | undefined; querystring?: Q | undefined },
  params: unknown,
  query: unknown,
): Validated<z.output<P>, z.output<Q>>;
export function validateParts(
  schemas: { params?: z.ZodType | undefined; querystring?: z.ZodType | undefined },
  params: unknown,
  query: unknown,
): Validated<unknown, unknown> {
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
