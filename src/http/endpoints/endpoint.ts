import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import type { RatesSnapshot } from '../../domain/snapshot.js';
import type { SourceDescription } from '../../domain/source-values.js';
import type { Counted } from '../hooks/count-request.js';
import { sendError } from '../errors.js';
import { documented, type RouteDoc } from '../openapi/route-docs.js';
import { validateParts, type AppRules } from './validate-parts.js';

/** What an endpoint computes its answer from: the rates in memory, the currencies served, the enabled sources. */
export interface RatesData {
  snapshot: RatesSnapshot;
  tracked: TrackedCurrencies;
  /** The enabled sources, in SOURCES order. */
  sources: readonly SourceDescription[];
  /** One enabled source's rates alone (DECISIONS §15, `source=ID`); undefined: `snapshot`. */
  ratesOf: (source: string | undefined) => RatesSnapshot;
}

/** An endpoint without path parameters or query: its input is empty. */
type NoInput = z.ZodObject<Record<never, never>>;

/** Everything about one API endpoint, in its own module; `P` and `Q` type its input end to end. */
export interface EndpointSpec<P extends z.ZodType, Q extends z.ZodType, B> {
  /** The route template, as Fastify, the logs, the metrics and the OpenAPI document name it. */
  path: string;
  params?: P;
  query?: Q;
  /** Whether the URL alone (with the data version) fixes the 200 body, so it can be kept and sent again. */
  cacheable: boolean;
  /** The OpenAPI text: summary, description, parameter hints and the answers with their bodies. */
  doc: RouteDoc;
  /**
   * The 200 body for validated input; throws the domain's refusals (unknown currency, no data,
   * amount not positive). `counted`: how the quota counted this request (for GET /usage).
   */
  body(data: RatesData, input: { params: z.output<P>; query: z.output<Q> }, counted: Counted): B;
  /** The 200 body's JSON text, where the endpoint writes it itself (else JSON.stringify of it). */
  json?(body: B): string;
  /** The 200 body as CSV, for a client that prefers `text/csv` (errors stay JSON). */
  csv?(body: B): string;
}

/** A 200 body as one of its representations: its text, or the value JSON.stringify writes. */
export type Representation = { text: string; type: 'json' | 'csv' } | { value: unknown };

/**
 * How every API route answers (routes/api-routes.ts): `compute` is called only when no kept answer fits,
 * with the representation the client prefers.
 */
export type Respond = (
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: ApiEndpoint,
  compute: (data: RatesData, counted: Counted, csv: boolean) => Representation,
) => FastifyReply;

/** An endpoint as the routes, the 405s and the OpenAPI document see it, its types kept inside. */
export interface ApiEndpoint {
  readonly path: string;
  readonly cacheable: boolean;
  /** Whether the 200 is also given as CSV (the answer then varies with Accept). */
  readonly csv: boolean;
  /** Adds the GET route (HEAD mirrors it) to `app`; its handler answers through `respond`, validating with the app's `rules`. */
  route(app: FastifyInstance, respond: Respond, rules?: AppRules): void;
}

/** One endpoint from its spec: its handler validates the input, then answers through `respond`. */
export function defineEndpoint<B, P extends z.ZodType = NoInput, Q extends z.ZodType = NoInput>(spec: EndpointSpec<P, Q, B>): ApiEndpoint {
  const schemas = { ...(spec.params ? { params: spec.params } : {}), ...(spec.query ? { querystring: spec.query } : {}) };
  const options = documented(spec.doc, schemas, spec.csv !== undefined);
  const represent = (body: B, csv: boolean): Representation => {
    if (csv && spec.csv) return { text: spec.csv(body), type: 'csv' };
    return spec.json ? { text: spec.json(body), type: 'json' } : { value: body };
  };
  const endpoint: ApiEndpoint = {
    path: spec.path,
    cacheable: spec.cacheable,
    csv: spec.csv !== undefined,
    route(app, respond, rules) {
      app.get(spec.path, options, (request, reply) => {
        // DECISIONS §1.4: after the key and the quota (onRequest hooks), before the answer.
        const input = validateParts({ params: spec.params, querystring: spec.query }, request.params, request.query, rules);
        if (!input.ok) return sendError(reply, input.error);
        return respond(request, reply, endpoint, (data, counted, csv) =>
          represent(spec.body(data, { params: input.params, query: input.query }, counted), csv),
        );
      });
    },
  };
  return endpoint;
}
