import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from './errors.js';

/**
 * A 200 body as sent: its bytes, its content type and their strong ETag. Kept as bytes, so a
 * cached answer is not encoded again for each request that gets it (a year of rates is 144 KB).
 */
export interface RenderedBody {
  readonly bytes: Buffer;
  readonly type: string;
  readonly etag: string;
}

export const CSV_TYPE = 'text/csv; charset=utf-8';

/** The strong ETag of these bytes. */
export function etagOf(bytes: Buffer): string {
  return `"${hash('sha1', bytes, 'base64url')}"`;
}

export function renderText(text: string, type: string): RenderedBody {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, type, etag: etagOf(bytes) };
}

export function render(body: unknown): RenderedBody {
  return renderText(JSON.stringify(body), JSON_TYPE);
}

/**
 * 200 bodies by key (the request URL, with the representation when there is a choice), for the data version they were computed from: the same URL computes
 * to the same body until the data changes, and a new version empties the cache. Bounded by the
 * bytes it holds; the oldest entries go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, RenderedBody>();
  private version = -1;
  private held = 0;

  constructor(private readonly maxSize = 8 * 1024 * 1024) {}

  get(version: number, key: string): RenderedBody | undefined {
    return version === this.version ? this.entries.get(key) : undefined;
  }

  set(version: number, key: string, body: RenderedBody): void {
    if (version !== this.version) {
      this.entries.clear();
      this.held = 0;
      this.version = version;
    }
    const size = key.length + body.bytes.length;
    if (size > this.maxSize || this.entries.has(key)) return;
    while (this.held + size > this.maxSize) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.held -= oldestKey.length + oldest.bytes.length;
    }
    this.entries.set(key, body);
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
  if (notModified(request.headers['if-none-match'], body.etag)) {
    // Fastify's HEAD handling states the length of what it is given, 0 for nothing; given the bytes
    // (never sent), a HEAD's 304 states the 200's length, as RFC 9110 §8.6 allows, not a wrong 0.
    return reply.code(304).send(request.method === 'HEAD' ? body.bytes : undefined);
  }
  return reply.type(body.type).send(body.bytes);
}
