import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, sendError } from '../errors.js';
import { requestPath } from '../request-path.js';
import { DOCS_PREFIX } from '../openapi/docs-paths.js';

/**
 * DECISIONS §11: the reference loads its own scripts, styles and the document from this origin
 * and nothing else, and runs no inline script: Swagger UI's page has none (its initializer is a
 * file, see @fastify/swagger-ui's swagger-initializer.js). Inline styles are allowed: Swagger UI
 * writes a `<style>` (its top bar's logo) and browser tooling adds others (the README's
 * screenshot is taken so); a style runs no code. Images may be data: URLs: the logo and
 * swagger-ui.css's icons are. No page may frame it.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A `.` or `..` segment, written out or percent-encoded in any case (`%2e`), an encoded slash or
 * backslash, or an encoded NUL. None of the reference's own assets is named so; @fastify/static
 * would resolve them (a 403 for a way out of its folder, a bare 400 for a NUL) instead of
 * answering 404 like any unknown path.
 */
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)|%2e|%2f|%5c|%00|\\/i;

/** The page an `index.html` request is sent to: once, whatever its query (Swagger UI's own redirect keeps the query and loops). */
const STATIC_INDEX = `${DOCS_PREFIX}/static/index.html`;

/** onRequest of the reference's routes: only its own pages and assets are answered. */
export function guardDocsPath(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const path = requestPath(request.url);
  // Answered here: a hook that sends does not call done, and nothing after it runs.
  if (DOT_SEGMENT.test(path)) return void sendError(reply, new HttpError(404, `Cannot ${request.method} ${path}`));
  if (request.routeOptions.url === STATIC_INDEX) return void reply.redirect(`${DOCS_PREFIX}/`);
  done();
}

/** onSend of the reference's routes: the browser protections on every answer, errors included. */
export function protectDocs(_request: FastifyRequest, reply: FastifyReply, _payload: unknown, done: () => void): void {
  reply.header('content-security-policy', DOCS_CSP).header('x-frame-options', 'DENY');
  done();
}
