import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifySwagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { PACKAGE_ROOT } from '../../package-root.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './docs-paths.js';
import { requestHeadersDoc } from './route-docs.js';
import { METHOD_NOT_ALLOWED_EXAMPLE } from './response-schemas.js';

const packageJson = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };

const DESCRIPTION = `The European Central Bank's euro reference rates: latest and historical rate sets, ranges of
days and how rates moved over them, single and bulk conversions (on any past day too), and the
supported currencies.

Every \`/api/v1\` request needs \`Authorization: Bearer <API key>\` and counts against the key's quota (every
answer after authentication counts, 304, 400 and 404 included; a 429 does not). Rates are units of the
currency per one unit of the base, decimal strings with exactly 6 fractional digits, rounded half-up.
Currency codes are three letters, matched case-insensitively and shown upper-case.

Checks run in this order, the first failure winning: unknown path (404) or method (405, \`Allow: GET, HEAD\`),
neither needing a key nor counting; the key (401); the quota (429); parameter formats (400, \`message\` an
array); a non-positive amount (400, string); an untracked currency (400, string); missing data (404).

For people rather than programs: [the web page](/) at \`/\` converts amounts, charts a pair's history and
lists the latest rates, with the same key.`;

/** The route transform of the zod type provider, plus what zod cannot say: descriptions and headers. */
const zodTransform = createJsonSchemaTransform({ skipList: [] });

const transform: SwaggerTransform = (input) => {
  const result = zodTransform(input) as { schema: FastifySchema & Record<string, unknown>; url: string };
  const doc = input.route.config?.doc;
  if (doc === undefined || input.route.method !== 'GET' || result.schema.hide) return result;
  const response = (result.schema.response ?? {}) as Record<string, Record<string, unknown>>;
  for (const [status, documented] of Object.entries(doc.responses)) {
    const transformed = response[status];
    if (transformed) response[status] = { ...transformed, description: documented.description, headers: documented.headers };
  }
  for (const part of ['params', 'querystring'] as const) {
    const properties = (result.schema[part] as { properties?: Record<string, object> } | undefined)?.properties ?? {};
    for (const [name, hint] of Object.entries(doc.parameters ?? {})) {
      if (properties[name]) properties[name] = { ...properties[name], ...hint };
    }
  }
  result.schema.headers = requestHeadersDoc(doc);
  return result;
};

type Operation = { parameters?: { in: string }[] };
const PARAMETER_ORDER = ['path', 'query', 'header'];

/**
 * Components from the zod registry. The type provider emits each registered schema twice, as
 * input (`<id>Input`) and output (`<id>`); the API only answers with these, so the input copies go.
 */
const transformObject: SwaggerTransformObject = (document) => {
  const result = jsonSchemaTransformObject(document) as ReturnType<SwaggerTransformObject> & {
    components: { schemas: Record<string, unknown> };
  };
  const schemas = result.components.schemas;
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && name.slice(0, -'Input'.length) in schemas) delete schemas[name];
  }
  // SPEC lists a path's parameters first (`date`, then `base` and `symbols`); so does the document.
  for (const path of Object.values(result.paths ?? {}) as Record<string, Operation>[]) {
    for (const operation of Object.values(path)) {
      operation.parameters?.sort((a, b) => PARAMETER_ORDER.indexOf(a.in) - PARAMETER_ORDER.indexOf(b.in));
    }
  }
  return result;
};

/**
 * The OpenAPI 3.1 document, built by @fastify/swagger from the routes' zod schemas; served at
 * OPENAPI_PATH without a key, not counted: registered beside, not inside, the authenticated
 * plugin. Call before any route is added.
 */
export function registerOpenApi(app: FastifyInstance): void {
  app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'currency-rates',
        version: packageJson.version,
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      tags: [
        { name: 'Rates', description: 'Rate sets against a base currency' },
        { name: 'Conversion', description: 'Amounts converted at the day’s rates' },
        { name: 'Currencies', description: 'The served currencies' },
        { name: 'Usage', description: "The calling key's quota and what is left of it" },
        { name: 'Operations', description: 'Probes for load balancers and orchestrators (no key)' },
        { name: 'Frankfurter v1', description: "Drop-in: Frankfurter v1's paths and shapes, numbers as JSON numbers (docs/drop-in.md)" },
        { name: 'Frankfurter v2', description: "Drop-in: Frankfurter v2's paths and shapes (docs/drop-in.md)" },
        { name: 'Open Exchange Rates', description: "Drop-in: Open Exchange Rates' paths and shapes; `app_id` or a Bearer key (docs/drop-in.md)" },
      ],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key created with `currency-rates keys create`',
          },
        },
        responses: {
          MethodNotAllowed: {
            description:
              `Any method other than GET, HEAD or OPTIONS on an API path (\`${METHOD_NOT_ALLOWED_EXAMPLE}\`); ` +
              'answered before authentication, not counted',
            headers: { Allow: { schema: { type: 'string', enum: ['GET, HEAD'] } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/MethodNotAllowed' } } },
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    hideUntagged: true,
    transform,
    transformObject,
  });

  app.register(async (docs) => {
    let body: string | undefined;
    docs.get(OPENAPI_PATH, async (_request, reply) => {
      body ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(body);
    });
  });
}

/**
 * Swagger UI's reference of the document at DOCS_PREFIX, as a plugin: app.ts registers it in a
 * context of its own, with the guard and browser protections (hooks/docs-guard.ts) on each of its
 * routes, static files included, and nothing else.
 */
export async function apiReference(reference: FastifyInstance): Promise<void> {
  await reference.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: {
      validatorUrl: null,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      tryItOutEnabled: true,
      supportedSubmitMethods: ['get'],
    },
    theme: { title: 'currency-rates API reference' },
  });
}
