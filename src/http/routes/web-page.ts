import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestPath } from '../request-path.js';
import { etagOf, sendBody, type RenderedBody } from '../response-cache.js';

/** Where `npm run build` writes the page (web/, built by Vite): dist/web beside dist/src. */
export const WEB_ROOT = fileURLToPath(new URL('../../../web/', import.meta.url));

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

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A file of the page as sent: its bytes, type and ETag, and how long a browser may keep it. */
interface WebFile extends RenderedBody {
  cacheControl: string;
}

/** Every file of the built page, by the URL path it is served at; the page itself at `/`. */
export function loadWebFiles(root: string = WEB_ROOT): Map<string, WebFile> {
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`The web page is not built (${join(root, 'index.html')} is missing): run npm run build`);
  }
  const files = new Map<string, WebFile>();
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const path = join(root, name);
    const type = TYPES[extname(name)];
    // Folders, and anything the build did not mean to serve (no known type), are skipped.
    if (type === undefined) continue;
    const body = readFileSync(path);
    const url = name === 'index.html' ? '/' : `/${relative(root, path).split(sep).join('/')}`;
    files.set(url, {
      bytes: body,
      type,
      etag: etagOf(body),
      // Vite names what it writes under assets/ by content: those never change under their name.
      cacheControl: url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return files;
}

/** onSend of the page's routes: the browser protections on every answer. */
function protectPage(_request: FastifyRequest, reply: FastifyReply, _payload: unknown, done: () => void): void {
  reply.header('content-security-policy', WEB_PAGE_CSP).header('x-frame-options', 'DENY').header('referrer-policy', 'no-referrer');
  done();
}

/**
 * onRequest of the page's routes: the router also hands over targets that are no such path (`*`
 * reaches `/`); those stay the unknown path's 404, as before the page existed.
 */
function exactPathOnly(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (requestPath(request.url) !== request.routeOptions.url) return void reply.callNotFound();
  done();
}

/**
 * The page at `/` and its assets, each at its own exact path: no wildcard, so any other
 * path stays the unknown path's 404. No key, not counted: registered beside the API plugin.
 */
export function webPageRoutes(app: FastifyInstance, files: Map<string, WebFile> = loadWebFiles()): void {
  app.addHook('onRequest', exactPathOnly);
  app.addHook('onSend', protectPage);
  for (const [url, file] of files) {
    app.get(url, async (request, reply) => sendBody(request, reply.header('cache-control', file.cacheControl), file));
  }
}
