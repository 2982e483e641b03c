import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from './errors.js';

/**
 * A 200 body as sent: its text, how that text is written to the socket, its length in bytes, and
 * the strong ETag of those bytes. Kept as text, not as a Buffer: Node writes a string answer
 * together with its head, in one `write` of one string, where a Buffer goes out by `writev`
 * beside the head, and that path read each part back through V8's API (~2,700 fewer
 * instructions per rates/latest answer as text, callgrind). ASCII text, nearly every answer, is
 * written as latin1, which copies its characters as they are; any other as UTF-8.
 */
export interface RenderedBody {
  text: string;
  encoding: 'latin1' | 'utf8';
  byteLength: number;
  etag: string;
}

/**
 * A body already serialised (conversion-answers.ts), passed through as it is. Its text is ASCII
 * (codes, dates, digits, and an amount that matched the numeric-string rule), so its characters
 * are its bytes and its length its length in bytes: nothing counts them. It may come with its
 * ETag, when its maker knows a strong validator of its bytes without hashing them.
 */
export class Json {
  constructor(
    readonly text: string,
    readonly etag?: string,
  ) {}
}

export function render(body: unknown): RenderedBody {
  if (body instanceof Json) return { text: body.text, encoding: 'latin1', byteLength: body.text.length, etag: body.etag ?? etagOf(body.text) };
  const text = JSON.stringify(body);
  const byteLength = Buffer.byteLength(text);
  return { text, encoding: byteLength === text.length ? 'latin1' : 'utf8', byteLength, etag: etagOf(text) };
}

/**
 * The SHA-1 of the text's UTF-8 bytes (the bytes sent), quoted. The one-shot form: no Hash object
 * per answer (measured 2.5× faster for these sizes).
 */
function etagOf(text: string): string {
  return `"${hash('sha1', text, 'base64url')}"`;
}

/**
 * 200 bodies by request URL, for the data version they were computed from. The same URL always
 * parses, validates and computes to the same body until the data changes, so a hit skips all
 * three; a new version empties the cache. Bounded by the bytes it holds: the oldest entries go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, RenderedBody>();
  private version = -1;
  private heldBytes = 0;

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  get(version: number, url: string): RenderedBody | undefined {
    return version === this.version ? this.entries.get(url) : undefined;
  }

  set(version: number, url: string, body: RenderedBody): void {
    if (version !== this.version) {
      this.entries.clear();
      this.heldBytes = 0;
      this.version = version;
    }
    const size = url.length + body.byteLength;
    if (size > this.maxBytes || this.entries.has(url)) return;
    while (this.heldBytes + size > this.maxBytes) {
      const [oldestUrl, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestUrl);
      this.heldBytes -= oldestUrl.length + oldest.byteLength;
    }
    // An entry object of the cache's own, not the body handed in: V8 decides per allocation site
    // whether to allocate an object straight in the old generation, and render()'s bodies mostly
    // die young (conversions are never cached). Had cached bodies kept render()'s site alive, V8
    // would tenure it, and every conversion's body would then start old and keep its text and
    // ETag through young collections until a full one (see docs/performance.md, "Memory").
    this.entries.set(url, { text: body.text, encoding: body.encoding, byteLength: body.byteLength, etag: body.etag });
    this.heldBytes += size;
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
export function sendRendered(request: FastifyRequest, reply: FastifyReply, body: RenderedBody): FastifyReply {
  reply.header('etag', body.etag);
  if (notModified(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(body.text);
}
