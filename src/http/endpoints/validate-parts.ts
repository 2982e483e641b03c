import { z } from 'zod';
import { HttpError } from '../errors.js';

/** What validation gives: the parts as parsed, or the 400 that lists every failed rule. */
export type Validated<P, Q> = { ok: true; params: P; query: Q } | { ok: false; error: HttpError };

/**
 * Rules that depend on the app's configuration (the enabled sources: parameters.ts, sourceRules),
 * each taking the place of the query rule of the same name, where it stands in the 400 array. One
 * per app, holding each query schema with its rules in place, made once: zod compiles a schema on
 * first use, and the schemas are the endpoints' own, a fixed few.
 */
export class AppRules {
  private readonly ruled = new Map<z.ZodType, z.ZodType>();

  constructor(private readonly rules: Readonly<Record<string, z.ZodType>>) {}

  /** `schema` with these rules in place of its own of the same names. */
  in(schema: z.ZodType): z.ZodType {
    if (!(schema instanceof z.ZodObject)) return schema;
    let made = this.ruled.get(schema);
    if (!made) {
      const own = Object.entries(this.rules).filter(([name]) => name in schema.shape);
      // safeExtend keeps each replaced key where it stood, so the messages keep their order.
      made = own.length === 0 ? schema : schema.safeExtend(Object.fromEntries(own));
      this.ruled.set(schema, made);
    }
    return made;
  }
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
    ['query', schemas.querystring && (rules ? rules.in(schemas.querystring) : schemas.querystring), query],
  ] as const) {
    if (!schema) continue;
    const result = schema.safeParse(input ?? {});
    if (result.success) parsed[part] = result.data;
    else messages.push(...result.error.issues.map((issue) => issue.message));
  }
  return messages.length > 0 ? { ok: false, error: new HttpError(400, messages) } : { ok: true, ...parsed };
}
