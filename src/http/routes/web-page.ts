import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PACKAGE_ROOT } from '../../package-root.js';
import { etagOf, sendBody, type RenderedBody } from '../response-cache.js';

/** Where `npm run build` writes the page (web/, built by Vite): dist/web beside dist/src. */
export const WEB_ROOT = join(PACKAGE_ROOT, 'dist', 'web');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A file of the page as sent: its bytes, type and ETag, and how long a browser may keep it. */
export interface WebFile extends RenderedBody {
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

/**
 * The page at `/` and its assets, each at its own exact path: no wildcard, so any other path stays
 * the unknown path's 404. No key, not counted: registered beside the API plugin, its hooks
 * (hooks/page-guard.ts) in app.ts.
 */
export function webPageRoutes(app: FastifyInstance, files: Map<string, WebFile> = loadWebFiles()): void {
  for (const [url, file] of files) {
    app.get(url, async (request, reply) => sendBody(request, reply.header('cache-control', file.cacheControl), file));
  }
}
