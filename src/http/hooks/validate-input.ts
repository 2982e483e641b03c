import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { sendError, type ErrorAnswer } from '../errors.js';

export interface RouteSchemas {
  params?: ZodType;
  querystring?: ZodType;
}

/** What validation gives: the parts as parsed, or the 400 that lists every failed rule (both ways in send it as it is). */
export type Validated = { ok: true; params: unknown; query: unknown } | { ok: false; refusal: ErrorAnswer };

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
    const result = checked(schema, input ?? {});
    if (result.issues) messages.push(...result.issues.map((issue) => issue.message));
    else parsed[part] = result.value;
  }
  return messages.length > 0 ? { ok: false, refusal: { statusCode: 400, messages, withErrorField: true } } : { ok: true, ...parsed };
}

/** A schema's synchronous verdict: `{ value }` or `{ issues }`. */
type Verdict = Exclude<ReturnType<ZodType['~standard']['validate']>, Promise<unknown>>;

/**
 * The schema's verdict through its Standard Schema interface (`~standard.validate`), which zod
 * implements with the same checks and the same finalized issues as `safeParse`. `safeParse`'s
 * failure is an object literal with a getter and setter closing over its call, and V8 gives
 * every such object a hidden class of its own, made in the old generation and holding those
 * closures: a stream of 400s kept them alive through young collections and ran old-generation
 * collections back to back (a flood of one invalid URL: 15 in 6 s, each young collection
 * promoting ~190 KB, against 2 and none for rates/latest). This one returns plain objects.
 */
function checked(schema: ZodType, input: unknown): Verdict {
  const result = schema['~standard'].validate(input);
  if (result instanceof Promise) {
    // Only a check that threw or is asynchronous (none of the API's) gives a promise: a fault,
    // answered as one, never a guess at the input's validity.
    result.catch(() => undefined);
    throw new Error('a request schema did not validate synchronously');
  }
  return result;
}

/**
 * preHandler: Fastify's own validation would stop at the first failing part, so its compiler is
 * a pass-through and the same zod schemas, which also document the routes, are applied here.
 */
export async function validateInput(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const result = validateParts((request.routeOptions.schema ?? {}) as RouteSchemas, request.params, request.query);
  if (!result.ok) return sendError(reply, result.refusal);
  request.params = result.params;
  request.query = result.query;
  return undefined;
}
