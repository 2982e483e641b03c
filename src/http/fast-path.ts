import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import fastQuerystring from 'fast-querystring';
import { hashApiKey } from '../domain/api-keys.js';
import { rateLimitHeaders, remainingOf, resetOf, type Clock, type QuotaPolicy } from '../domain/quota.js';
import type { KeyCache } from '../live/key-cache.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { QuotaStore } from '../storage/ports.js';
import { accessLineWriter } from './access-log.js';
import { bodyLater, cachedBody, type RouteContext } from './answer.js';
import { askedQuestion, ConversionQuestions } from './conversion-questions.js';
import { API_ENDPOINTS, type Endpoint } from './endpoints.js';
import { AUTH_CHALLENGE, errorJson, failureAnswer, JSON_TYPE, refusalOf, type ErrorAnswer } from './errors.js';
import { bearerToken, missingKey, quotaExceeded } from './hooks/authenticate.js';
import { allowedHeaderList, commonHeaderList } from './hooks/common-headers.js';
import { validateParts } from './hooks/validate-input.js';
import { OwnHeads } from './own-head.js';
import { requestIdOf, type RequestId } from './request-id.js';
import { notModified, type RenderedBody } from './response-cache.js';

/** The query parser of both ways in: Fastify is given this one too, so they cannot parse differently. */
export function parseQuery(query: string): Record<string, unknown> {
  return query.length === 0 ? {} : fastQuerystring.parse(query);
}

export interface FastPathDeps {
  context: RouteContext;
  keys: KeyCache;
  quota: QuotaStore;
  policy: QuotaPolicy;
  clock: Clock;
  log: FastifyBaseLogger | undefined;
  metrics: ServiceMetrics | undefined;
  maxUrlLength: number;
  /** False once the server has begun to close: Fastify then answers (503, Connection: close). */
  accepting: () => boolean;
}

/**
 * A request recognised as a call of an endpoint: with the 200 body it will get, or what makes that
 * body; or with the refusal its input gets once it is counted (a 400, or a 404 for no data).
 */
type Prepared =
  | { endpoint: Endpoint; body: RenderedBody | (() => RenderedBody); refusal?: undefined }
  | { endpoint: Endpoint; refusal: Refusal };

/** An error answer counted against the quota, as sent: its status and its JSON body. */
interface Refusal {
  statusCode: number;
  json: string;
}

const refusal = (answer: ErrorAnswer): Refusal => ({ statusCode: answer.statusCode, json: errorJson(answer) });

/**
 * The API's successful GETs, answered without the framework. Most traffic is a known key asking
 * for a valid URL, often one answered before; for it, Fastify's routing, hooks, request and reply
 * objects and child logger cost more than everything else the answer needs (measured side by side
 * on rates/latest: server CPU per answer 62.5 → 54.0 µs, throughput 0.65 → 0.75 of a bare
 * node:http server sending the same bytes). This path does what that answer needs, in the same order of
 * effect: authenticate, count against the quota, answer, log one line, observe the metrics.
 *
 * It only takes what it can answer exactly as the routes would, and decides that before anything
 * is counted: a GET with a Host header and no body, a key the key cache holds, and a path of an
 * endpoint without percent-encoding. Its input is then checked by the endpoint's own zod schemas
 * and compute (a conversion question validated before is not validated again for a new amount:
 * conversion-questions.ts): input they accept gets its 200, input they refuse the 400 (or, for
 * no data, the 404) they name, an error of any other kind goes to Fastify. Anything else returns
 * false untouched and goes through Fastify, which answers every other refusal made before the
 * count (an unknown key's 401, a path's 404, 405, 414...); the 401 of a GET of an endpoint without
 * a well-formed key header is answered here. Once counted, the request is answered here: 200,
 * 304, the input's 400 or 404, 429, or 503 when the quota store fails. The bodies come from the same
 * endpoint definitions, renderer, error bodies and response cache as the routes'.
 */
export function fastPath(deps: FastPathDeps): (request: IncomingMessage, response: ServerResponse) => boolean {
  const { context, keys, quota, policy, clock } = deps;
  const exact = new Map<string, Endpoint>();
  const withParam: { prefix: string; name: string; endpoint: Endpoint }[] = [];
  for (const endpoint of API_ENDPOINTS) {
    const colon = endpoint.url.indexOf('/:');
    if (colon === -1) exact.set(endpoint.url, endpoint);
    else withParam.push({ prefix: endpoint.url.slice(0, colon + 1), name: endpoint.url.slice(colon + 2), endpoint });
  }
  const exceeded = refusal(quotaExceeded(policy));
  const withoutKey = refusal(missingKey);
  const limitText = String(policy.limit);
  const questions = new ConversionQuestions();
  const heads = new OwnHeads();
  const log = deps.log;
  const accessLines = new Map(log ? API_ENDPOINTS.map((endpoint) => [endpoint, accessLineWriter(log, 'GET', endpoint.url)]) : []);

  /**
   * The endpoint and path parameters of a URL's path, as the router matches them (a static path
   * wins), and where its query starts (-1: none).
   */
  function route(url: string): { endpoint: Endpoint; params: Record<string, string>; mark: number } | undefined {
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    // Percent-decoding and fragments are the router's business.
    if (path.includes('%') || url.includes('#')) return undefined;
    const endpoint = exact.get(path);
    if (endpoint) return { endpoint, params: {}, mark };
    for (const candidate of withParam) {
      if (!path.startsWith(candidate.prefix)) continue;
      const value = path.slice(candidate.prefix.length);
      if (value.length > 0 && !value.includes('/')) return { endpoint: candidate.endpoint, params: { [candidate.name]: value }, mark };
    }
    return undefined;
  }

  function prepare(url: string): Prepared | undefined {
    const matched = route(url);
    if (!matched) return undefined;
    const { endpoint, mark } = matched;
    const hit = cachedBody(context, endpoint, url);
    if (hit) return { endpoint, body: hit };
    const amountName = endpoint.amountParameter;
    // A question is the query alone: an endpoint with path parameters would need them validated too.
    const asked = amountName === undefined || mark === -1 || endpoint.schema.params ? undefined : askedQuestion(url, mark, amountName);
    const known = asked && questions.withAmount(asked);
    if (known) return answer(endpoint, url, matched.params, known);
    const input = validateParts(endpoint.schema, matched.params, parseQuery(mark === -1 ? '' : url.slice(mark + 1)));
    if (!input.ok) return { endpoint, refusal: refusal(input.refusal) };
    if (asked) questions.remember(asked, input.query);
    return answer(endpoint, url, input.params, input.query);
  }

  function answer(endpoint: Endpoint, url: string, params: unknown, query: unknown): Prepared | undefined {
    try {
      return { endpoint, body: bodyLater(context, endpoint, url, params, query) };
    } catch (err) {
      const refused = refusalOf(err);
      return refused && { endpoint, refusal: refusal(refused) };
    }
  }

  async function countAndAnswer(request: IncomingMessage, response: ServerResponse, url: string, keyId: number, prepared: Prepared, started: number): Promise<void> {
    const requestId = requestIdOf(request);
    const now = clock.now();
    let status: number;
    try {
      const decision = await quota.consume(keyId, now, policy);
      // Counted either way, as the routes count it; the quota's 429 comes before the input's
      // refusal (DECISIONS §1).
      if (!decision.allowed || prepared.refusal) {
        const refused = prepared.refusal && decision.allowed ? prepared.refusal : exceeded;
        status = send(response, refused.statusCode, withHeaders(commonHeaderList(requestId), rateLimitHeaders(policy, decision, now)), refused.json);
      } else {
        const body = typeof prepared.body === 'function' ? prepared.body() : prepared.body;
        const remaining = remainingOf(policy, decision);
        const reset = resetOf(policy, decision);
        if (notModified(request.headers['if-none-match'], body.etag)) {
          response.writeHead(304, allowedHeaderList(requestId, limitText, remaining, reset, body.etag));
          response.end();
          status = 304;
        } else {
          heads.send(response, requestId, limitText, remaining, reset, body);
          status = 200;
        }
      }
    } catch (err) {
      // As the error handler answers a failure: never a guess, nothing internal in the body.
      const failure = failureAnswer(err, deps.log?.child({ reqId: requestId }));
      status = send(response, failure.answer.statusCode, withHeaders(commonHeaderList(requestId), failure.headers), errorJson(failure.answer));
    }
    logged(prepared.endpoint, requestId, url, status, started, keyId);
  }

  /** An answered request's access line and metrics. */
  function logged(endpoint: Endpoint, requestId: RequestId, url: string, status: number, started: number, keyId: number | undefined): void {
    const ms = performance.now() - started;
    accessLines.get(endpoint)?.(requestId, url, status, ms, keyId);
    deps.metrics?.observeRequest(endpoint.url, 'GET', status, ms / 1000);
  }

  /**
   * The 401 of a GET of an endpoint without a well-formed `Authorization: Bearer` header, as the
   * auth hook answers it (SPEC §5); false for any other URL, which the router answers (a 404 comes
   * before the 401: DECISIONS §1). A flood of requests without a key, the cheapest to send, went
   * through Fastify's routing, hooks and logger: ~62 µs of server CPU an answer against ~34 for a
   * 200 (the benchmark's 401 row).
   */
  function refusedWithoutKey(request: IncomingMessage, response: ServerResponse, url: string, started: number): boolean {
    const matched = route(url);
    if (!matched) return false;
    const requestId = requestIdOf(request);
    const status = send(response, withoutKey.statusCode, withHeaders(commonHeaderList(requestId), AUTH_CHALLENGE), withoutKey.json);
    logged(matched.endpoint, requestId, url, status, started, undefined);
    return true;
  }

  return function answered(request, response) {
    const started = performance.now();
    if (request.method !== 'GET' || !deps.accepting()) return false;
    const { url, headers } = request;
    if (url === undefined || url.length > deps.maxUrlLength || headers.host === undefined) return false;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const hash = keyHashOf(request.socket as KeyedSocket, headers.authorization);
    if (hash === undefined) return refusedWithoutKey(request, response, url, started);
    const keyId = keys.heldIdOfHash(hash);
    if (keyId === undefined) return false;
    const prepared = prepare(url);
    if (!prepared) return false;
    void countAndAnswer(request, response, url, keyId, prepared, started);
    return true;
  };
}

const lastKey = Symbol('last key');

/** A connection, with the last Authorization header it sent and the hash of that header's key. */
interface KeyedSocket extends Socket {
  [lastKey]?: { header: string; hash: string };
}

/**
 * The hash of the bearer token in `header`, taken once per connection while its header stays the
 * same: a client sends one key on every request of a keep-alive connection, and parsing and
 * hashing it again cost ~4,000 instructions an answer (callgrind). The header is compared only
 * with the one this same connection sent before; the key is still looked up by its hash on every
 * request, so a revoked key stops working as before.
 */
function keyHashOf(socket: KeyedSocket, header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const last = socket[lastKey];
  if (last !== undefined && last.header === header) return last.hash;
  const token = bearerToken(header);
  if (token === undefined) return undefined;
  const hash = hashApiKey(token);
  socket[lastKey] = { header, hash };
  return hash;
}

/** `list` with each of `headers` appended. */
function withHeaders(list: (string | number)[], headers: Record<string, string>): (string | number)[] {
  for (const name in headers) list.push(name, headers[name]!);
  return list;
}

/** An answer with an error's JSON. */
function send(response: ServerResponse, status: number, headers: (string | number)[], json: string): number {
  headers.push('content-type', JSON_TYPE, 'content-length', Buffer.byteLength(json));
  response.writeHead(status, headers);
  response.end(json);
  return status;
}
