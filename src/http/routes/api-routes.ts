import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { TrackedCurrencies } from '../../domain/currencies.js';
import type { SourceDescription } from '../../domain/source-values.js';
import type { RatesView } from '../../live/rates-view.js';
import { API_ENDPOINTS } from '../endpoints/api-endpoints.js';
import { ratesDataOf, type ApiEndpoint, type Representation, type Respond } from '../endpoints/endpoint.js';
import type { AppRules } from '../endpoints/validate-parts.js';
import { JSON_TYPE } from '../errors.js';
import { CONTENT_TYPES, MEDIA_TYPES, type Format } from '../formats.js';
import { HeavyAnswers, holdWhileSent, sendRendered } from '../heavy-answers.js';
import { render, renderText, type RenderedBody, type ResponseCache } from '../response-cache.js';
import type { Turns } from '../taking-turns.js';

export interface ApiRouteDeps {
  view: RatesView;
  /** The enabled sources, in SOURCES order (GET /sources). */
  sources: readonly SourceDescription[];
  tracked: TrackedCurrencies;
  cache: ResponseCache;
  /** A connection that takes no bytes of its answer for this long is closed (DECISIONS §14). */
  stalledAnswerMs: number;
  /** The app's one queue of heavy work (DECISIONS §14): every heavy answer takes its turns in it. */
  turns: Turns;
  /** The rules the app's configuration decides (the enabled sources: parameters.ts, sourceRules), made once. */
  rules: AppRules;
}

/**
 * The format of the answer: the one `format=` names, else the one Accept prefers among the
 * endpoint's (JSON first: what a request without Accept, or accepting anything, gets), else JSON.
 */
function formatFor(request: FastifyRequest, endpoint: ApiEndpoint, named: Format | undefined): Format {
  if (named !== undefined || endpoint.formats.length === 1) return named ?? 'json';
  const preferred = new Negotiator(request.raw).mediaType(endpoint.formats.map((format) => MEDIA_TYPES[format]));
  return endpoint.formats.find((format) => MEDIA_TYPES[format] === preferred) ?? 'json';
}

function rendered(representation: Exclude<Representation, { parts: unknown }>): RenderedBody {
  return 'value' in representation ? render(representation.value) : renderText(representation.text, JSON_TYPE);
}

/**
 * The API's GET routes, one per endpoint of the list, each validating its input first
 * (endpoint.ts). A cacheable endpoint's body is computed once per key, format and data version,
 * then sent again as it is; a heavy one (a range) is produced in pieces (heavy-answers.ts).
 */
export function apiRoutes(app: FastifyInstance, { view, sources, tracked, cache, stalledAnswerMs, turns, rules }: ApiRouteDeps, endpoints: readonly ApiEndpoint[] = API_ENDPOINTS): void {
  const heavy = new HeavyAnswers(cache, turns);
  const respond: Respond = (request, reply, { endpoint, key, format: named, compute }) => {
    const snapshot = view.snapshot;
    const format = formatFor(request, endpoint, named);
    if (endpoint.formats.length > 1) reply.header('vary', 'Accept');
    const cacheKey = `${format} ${key}`;
    const kept = endpoint.cacheable ? cache.get(snapshot.version, cacheKey) : undefined;
    if (kept) {
      holdWhileSent(reply, kept);
      return sendRendered(request, reply, kept.body, stalledAnswerMs);
    }
    if (request.counted === undefined) throw new Error('the API routes run after countRequest');
    const representation = compute(ratesDataOf(view, snapshot, tracked, sources), request.counted, format);
    if (!('parts' in representation)) {
      const body = rendered(representation);
      if (endpoint.cacheable) cache.set(snapshot.version, cacheKey, body);
      return sendRendered(request, reply, body, stalledAnswerMs);
    }
    return heavy.produce(snapshot.version, cacheKey, CONTENT_TYPES[format], representation.parts, endpoint.cacheable).then((produced) => {
      if ('parts' in produced) return heavy.sendInPieces(request, reply, produced, stalledAnswerMs);
      if (produced.kept) holdWhileSent(reply, produced.kept);
      return sendRendered(request, reply, produced.whole, stalledAnswerMs);
    });
  };
  for (const endpoint of endpoints) endpoint.route(app, respond, rules);
}
