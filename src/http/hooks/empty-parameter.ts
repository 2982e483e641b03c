import type { FastifyReply, FastifyRequest } from 'fastify';

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
