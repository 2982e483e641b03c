import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preflight } from '../cors.js';
import { HttpError, sendError } from '../errors.js';
import { requestPath } from '../request-path.js';

export const API_PATHS = [
  '/api/v1/rates/latest',
  '/api/v1/rates/:date',
  '/api/v1/rates/:start..:end',
  '/api/v1/fluctuation/:start..:end',
  '/api/v1/convert',
  '/api/v1/convert/bulk',
  '/api/v1/currencies',
  '/api/v1/sources',
  '/api/v1/usage',
] as const;

/** Served on an API path: GET and HEAD by the API, OPTIONS as the CORS preflight. */
const SERVED = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Every other method Node's parser hands over (PROPFIND, SEARCH, LOCK, …), not only those Fastify
 * routes by default: a method it does not know would fall through to the 404 of an unknown path.
 * CONNECT is not among them: Node never routes it (without a `connect` listener it closes the socket).
 */
const REFUSED = [...new Set(['DELETE', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY', ...METHODS])].filter(
  (method) => !SERVED.includes(method) && method !== 'CONNECT',
);

/**
 * DECISIONS §1.1: on a known path, OPTIONS is the CORS preflight and any other method but
 * GET/HEAD is a 405; neither needs a key nor counts. Answered in onRequest, before any body is read.
 */
export function otherMethodRoutes(app: FastifyInstance): void {
  // The set of methods is the whole server's (plugins share it); the routes below stay on API paths.
  for (const method of REFUSED) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  for (const url of API_PATHS) {
    app.route({ method: 'OPTIONS', url, onRequest: async (request, reply) => preflight(request, reply), handler: async () => undefined });
    app.route({
      method: REFUSED,
      url,
      onRequest: async (request, reply) => {
        reply.header('allow', 'GET, HEAD');
        return sendError(reply, new HttpError(405, `Cannot ${request.method} ${requestPath(request.url)}`));
      },
      handler: async () => undefined,
    });
  }
}

const RANGE_ENDS = new Set(['start', 'end']);

/**
 * onRequest, for every route: the router matches `/api/v1/rates/` to `/api/v1/rates/:date` with
 * an empty date, but a path with an empty segment is no API path (DECISIONS §1.1). It gets the
 * unknown path's 404, whatever the method, with no key asked and nothing counted.
 */
export function emptyParameterIsUnknownPath(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const params = request.params as Record<string, string> | undefined;
  for (const name in params) {
    // `*` is a wildcard's rest of the path (a 404's, a static folder's), which may well be empty;
    // a range segment `{start}..{end}` is never empty, even when one of its dates is.
    if (name !== '*' && !RANGE_ENDS.has(name) && params[name] === '') {
      reply.callNotFound();
      return;
    }
  }
  done();
}
