import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * One structured line per request: what was asked, by which key id (never the key), how it went.
 * The same fields whichever way the request was answered (this hook, or the fast path, which
 * names the request id itself: it logs through the root logger, not a request's child).
 */
export function accessLine(reqId: string | undefined, method: string, url: string | undefined, route: string | undefined, status: number, elapsedMs: number, keyId: number | undefined) {
  return { reqId, method, url, route, status, ms: Math.round(elapsedMs * 100) / 100, keyId };
}

export async function logAccess(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // The request's child logger already carries reqId.
  request.log.info(accessLine(undefined, request.method, request.url, request.routeOptions.url, reply.statusCode, reply.elapsedTime, request.keyId), 'request');
}
