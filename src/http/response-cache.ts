import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from './errors.js';

/** A 200 body as sent: its JSON text and the strong ETag of its bytes. */
export interface RenderedBody {
  readonly text: string;
  readonly etag: string;
}

export function render(body: unknown): RenderedBody {
  const text = JSON.stringify(body);
  return { text, etag: `"${hash('sha1', text, 'base64url')}"` };
}

/**
 * 200 bodies by request URL, for the data version they were computed from: the same URL computes
 * to the same body until the data changes, and a new version empties the cache. Bounded by the
 * characters it holds; the oldest entries go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, RenderedBody>();
  private version = -1;
  private held = 0;

  constructor(private readonly maxSize = 8 * 1024 * 1024) {}

  get(version: number, url: string): RenderedBody | undefined {
    return version === this.version ? this.entries.get(url) : undefined;
  }

  set(version: number, url: string, body: RenderedBody): void {
    if (version !== this.version) {
      this.entries.clear();
      this.held = 0;
      this.version = version;
    }
    const size = url.length + body.text.length;
    if (size > this.maxSize || this.entries.has(url)) return;
    while (this.held + size > this.maxSize) {
      const [oldestUrl, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestUrl);
      this.held -= oldestUrl.length + oldest.text.length;
    }
    this.entries.set(url, body);
    this.held += size;
  }
}

/** Whether a request's If-None-Match (absent: no) names these bytes, so 304 answers it. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes do not matter for If-None-Match.
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Sends a rendered 200, or 304 when the client already holds these bytes. */
export function sendBody(request: FastifyRequest, reply: FastifyReply, body: RenderedBody): FastifyReply {
  reply.header('etag', body.etag);
  if (notModified(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(body.text);
}
