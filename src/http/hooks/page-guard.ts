import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestPath } from '../request-path.js';

/**
 * The page runs only its own script and styles, talks only to this origin, and no page may frame
 * it. Unlike /docs (docs-guard.ts) no inline style is allowed: Vite writes the CSS to a file and
 * uPlot sets its styles through the DOM, which CSP does not restrict.
 */
export const WEB_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** onSend of the page's routes: the browser protections on every answer. */
export function protectPage(_request: FastifyRequest, reply: FastifyReply, _payload: unknown, done: () => void): void {
  reply.header('content-security-policy', WEB_PAGE_CSP).header('x-frame-options', 'DENY').header('referrer-policy', 'no-referrer');
  done();
}

/**
 * onRequest of the page's routes: the router also hands over targets that are no such path (`*`
 * reaches `/`); those stay the unknown path's 404, as before the page existed.
 */
export function exactPathOnly(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (requestPath(request.url) !== request.routeOptions.url) return void reply.callNotFound();
  done();
}

