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

/** A body kept by the cache, and how many connections are sending it (it stays kept while they do). */
export interface Kept {
  readonly body: RenderedBody;
  senders: number;
}

/**
 * 200 bodies by key (the endpoint's key, with its format), for the data version they were computed from: the same key computes
 * to the same body until the data changes, and a new version empties the cache. Bounded by the
 * bytes it holds, with what heavy answers reserve while they are produced (heavy-answers.ts);
 * the oldest entries no connection is sending go first.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Kept>();
  private version = -1;
  /** Bytes of the entries and of the reservations. */
  private held = 0;
  private reserved = 0;

  constructor(readonly maxSize = 8 * 1024 * 1024) {}

  get(version: number, key: string): Kept | undefined {
    return version === this.version ? this.entries.get(key) : undefined;
  }

  /** Keeps `body` under `key`; `reserved`: bytes reserved for it while produced, now its own. Undefined: not kept. */
  set(version: number, key: string, body: RenderedBody, reserved = 0): Kept | undefined {
    this.unreserve(reserved);
    this.moveTo(version);
    const size = key.length + body.bytes.length;
    if (version !== this.version || this.entries.has(key) || !this.makeRoom(size)) return undefined;
    const kept: Kept = { body, senders: 0 };
    this.entries.set(key, kept);
    this.held += size;
    return kept;
  }

  /** Sets `bytes` aside for a body being produced for `version`; false, with nothing changed, when they cannot fit. */
  reserve(version: number, bytes: number): boolean {
    this.moveTo(version);
    if (version !== this.version || !this.makeRoom(bytes)) return false;
    this.held += bytes;
    this.reserved += bytes;
    return true;
  }

  unreserve(bytes: number): void {
    this.held -= bytes;
    this.reserved -= bytes;
  }

  /** A newer version empties the cache; an older one (a request that read the data before it moved) changes nothing. */
  private moveTo(version: number): void {
    if (version <= this.version) return;
    this.entries.clear();
    this.held = this.reserved;
    this.version = version;
  }

  /** Frees room for `size` more bytes, oldest entries first, never one being sent; false when it cannot. */
  private makeRoom(size: number): boolean {
    if (this.held + size <= this.maxSize) return true;
    let freeable = 0;
    for (const [key, kept] of this.entries) if (kept.senders === 0) freeable += key.length + kept.body.bytes.length;
    if (this.held - freeable + size > this.maxSize) return false;
    for (const [key, kept] of this.entries) {
      if (this.held + size <= this.maxSize) break;
      if (kept.senders > 0) continue;
      this.entries.delete(key);
      this.held -= key.length + kept.body.bytes.length;
    }
    return true;
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
