import { z } from 'zod';
import { HttpError } from '../errors.js';

/** What validation gives: the parts as parsed, or the 400 that lists every failed rule. */
export type Validated<P, Q> = { ok: true; params: P; query: Q } | { ok: false; error: HttpError };

/**
 * Rules that depend on the app's configuration (the enabled sources: parameters.ts, sourceRules),
 * each taking the place of the query rule of the same name, where it stands in the 400 array.
 */
export type AppRules = Readonly<Record<string, z.ZodType>>;

/** Each query schema with an app's rules in place, made once per schema and app (zod compiles a schema on first use). */
const withRules = new WeakMap<z.ZodType, WeakMap<AppRules, z.ZodType>>();

function ruled(schema: z.ZodType, rules: AppRules | undefined): z.ZodType {
  if (rules === undefined || !(schema instanceof z.ZodObject)) return schema;
  let ofSchema = withRules.get(schema);
  if (!ofSchema) withRules.set(schema, (ofSchema = new WeakMap()));
  let made = ofSchema.get(rules);
  if (!made) {
    const own = Object.entries(rules).filter(([name]) => name in schema.shape);
    // safeExtend keeps each replaced key where it stood, so the messages keep their order.
    made = own.length === 0 ? schema : schema.safeExtend(Object.fromEntries(own));
    ofSchema.set(rules, made);
  }
  return made;
}

/**
 * Validates path and query together so one 400 lists every failed rule, path parameters first
 * (SPEC's tables put `date` before `base` and `symbols`). A part without a schema is passed on as
 * it came. Fastify's own validation would stop at the first failing part, so its compiler is a
 * pass-through (app.ts) and the same zod schemas, which also document the routes, are applied here,
 * with the app's `rules` in place in the query's.
 */
export function validateParts<P extends z.ZodType, Q extends z.ZodType>(
  schemas: { params?: P | undefined; querystring?: Q | undefined },
  params: unknown,
  query: unknown,
  rules?: AppRules,
): Validated<z.output<P>, z.output<Q>>;
export function validateParts(
  schemas: { params?: z.ZodType | undefined; querystring?: z.ZodType | undefined },
  params: unknown,
  query: unknown,
  rules?: AppRules,
): Validated<unknown, unknown> {
  const messages: string[] = [];
  const parsed = { params, query };
  for (const [part, schema, input] of [
    ['params', schemas.params, params],
    ['query', schemas.querystring && ruled(schemas.querystring, rules), query],
  ] as const) {
    if (!schema) continue;
    const result = schema.safeParse(input ?? {});
    if (result.success) parsed[part] = result.data;
    else messages.push(...result.error.issues.map((issue) => issue.message));
  }
  return messages.length > 0 ? { ok: false, error: new HttpError(400, messages) } : { ok: true, ...parsed };
}
