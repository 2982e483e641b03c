import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import type { RatesSnapshot } from '../../domain/snapshot.js';
import type { RatesView } from '../../live/rates-view.js';
import type { SourceDescription } from '../../domain/source-values.js';
import type { Counted } from '../hooks/count-request.js';
import { sendError } from '../errors.js';
import type { Format } from '../formats.js';
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

/**
 * What one answer reads: `snapshot`, read once when the request began (no answer mixes two data
 * versions), and each source's own snapshot, asked for in the same turn, so of the same version.
 */
export function ratesDataOf(view: RatesView, snapshot: RatesSnapshot, tracked: TrackedCurrencies, sources: readonly SourceDescription[]): RatesData {
  return { snapshot, tracked, sources, ratesOf: (source) => (source === undefined ? snapshot : view.snapshotOf(source)) };
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
  /**
   * A heavy body (DECISIONS §14), written part by part in every format it is offered in, JSON
   * first: sent in pieces as the client takes them, never held whole for one connection.
   */
  written?: { json(body: B): Iterable<string> } & { [F in Exclude<Format, 'json'>]?: (body: B) => Iterable<string> };
  /** The format the query names (`format=`), which wins over Accept; undefined: Accept decides. */
  formatOf?(query: z.output<Q>): Format | undefined;
}

/** A 200 body as one of its representations: its text, the value JSON.stringify writes, or its parts. */
export type Representation = { text: string } | { value: unknown } | { parts: () => Iterable<string>; format: Format };

/** What the routes need to answer one validated request (routes/api-routes.ts). */
export interface Answer {
  readonly endpoint: ApiEndpoint;
  /**
   * What fixes the body besides the data version and the format: the path's template and the
   * validated parameters, unknown ones left out (DECISIONS §14), so they never make another answer.
   */
  readonly key: string;
  /** The format `format=` names; undefined: the one Accept prefers among the endpoint's. */
  readonly format: Format | undefined;
  /** Called only when no kept answer fits, with the format chosen. */
  compute(data: RatesData, counted: Counted, format: Format): Representation;
}

/** How every API route answers (routes/api-routes.ts). */
export type Respond = (request: FastifyRequest, reply: FastifyReply, answer: Answer) => FastifyReply | Promise<FastifyReply>;

/** An endpoint as the routes, the 405s and the OpenAPI document see it, its types kept inside. */
export interface ApiEndpoint {
  readonly path: string;
  readonly cacheable: boolean;
  /** The formats its 200 is given in, JSON first (more than one: the answer varies with Accept). */
  readonly formats: readonly Format[];
  /** Adds the GET route (HEAD mirrors it) to `app`; its handler answers through `respond`, validating with the app's `rules`. */
  route(app: FastifyInstance, respond: Respond, rules?: AppRules): void;
}

/** One endpoint from its spec: its handler validates the input, then answers through `respond`. */
export function defineEndpoint<B, P extends z.ZodType = NoInput, Q extends z.ZodType = NoInput>(spec: EndpointSpec<P, Q, B>): ApiEndpoint {
  const schemas = { ...(spec.params ? { params: spec.params } : {}), ...(spec.query ? { querystring: spec.query } : {}) };
  const written = spec.written;
  const formats: Format[] = written ? ['json', ...(['csv', 'ndjson'] as const).filter((format) => written[format] !== undefined)] : ['json'];
  const options = documented(spec.doc, schemas, formats);
  const represent = (body: B, format: Format): Representation => {
    const parts = written?.[format];
    if (parts) return { parts: () => parts(body), format };
    return spec.json ? { text: spec.json(body) } : { value: body };
  };
  const endpoint: ApiEndpoint = {
    path: spec.path,
    cacheable: spec.cacheable,
    formats,
    route(app, respond, rules) {
      app.get(spec.path, options, (request, reply) => {
        // DECISIONS §1.4: after the key and the quota (onRequest hooks), before the answer.
        const input = validateParts({ params: spec.params, querystring: spec.query }, request.params, request.query, rules);
        if (!input.ok) return sendError(reply, input.error);
        const { params, query } = input;
        return respond(request, reply, {
          endpoint,
          // zod's objects leave out the keys they do not know: an unknown parameter changes nothing.
          key: `${spec.path} ${JSON.stringify(params ?? {})} ${JSON.stringify(query ?? {})}`,
          format: spec.formatOf?.(query),
          compute: (data, counted, format) => represent(spec.body(data, { params, query }, counted), format),
        });
      });
    },
  };
  return endpoint;
}
