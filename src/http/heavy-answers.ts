import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { notModified, sendBody, type Kept, type RenderedBody, type ResponseCache } from './response-cache.js';
import { piecesInTurns, type Turns } from './taking-turns.js';

/**
 * DECISIONS §14: what a connection may hold of an answer unsent. A body up to this size is sent
 * whole like any other; a larger one only from the cache, kept there while it is sent, or else
 * written again in pieces as the client takes them.
 */
export const SENT_WHOLE_BYTES = 1024 * 1024;

/** A heavy body after its first pass: whole (`kept` when the cache took it), or known by its ETag and length alone. */
export type Produced =
  | { whole: RenderedBody; kept: Kept | undefined }
  | { etag: string; length: number; type: string; parts: () => Iterable<string> };

/**
 * Produces heavy bodies (ranges) in pieces, in turns with every other heavy answer: a first pass
 * gives the ETag and length (a 304 or a HEAD needs no more) and keeps the bytes when they fit;
 * a body too large to keep is written a second time, as the client reads it.
 */
export class HeavyAnswers {
  private readonly inProgress = new Map<string, Promise<Produced>>();

  /** `turns`: the app's one queue, shared with every other heavy answer of the app, whatever its path. */
  constructor(
    private readonly cache: ResponseCache,
    private readonly turns: Turns,
  ) {}

  /** The body of `key`, written by `parts`; the requests asking for it meanwhile share one production. */
  produce(version: number, key: string, type: string, parts: () => Iterable<string>, cacheable: boolean): Promise<Produced> {
    const id = `${version} ${key}`;
    let produced = this.inProgress.get(id);
    if (produced === undefined) {
      produced = this.firstPass(version, key, type, parts, cacheable).finally(() => this.inProgress.delete(id));
      this.inProgress.set(id, produced);
    }
    return produced;
  }

  private async firstPass(version: number, key: string, type: string, parts: () => Iterable<string>, cacheable: boolean): Promise<Produced> {
    const sha1 = createHash('sha1');
    let length = 0;
    let reserved = 0;
    let pieces: Buffer[] | undefined = [];
    try {
      for await (const piece of piecesInTurns(parts(), this.turns)) {
        sha1.update(piece);
        length += piece.length;
        if (pieces === undefined) continue;
        // Beyond what one connection may hold, the bytes are held only in room the cache sets aside.
        if (length > SENT_WHOLE_BYTES && !(cacheable && this.cache.reserve(version, length - reserved))) {
          this.cache.unreserve(reserved);
          [pieces, reserved] = [undefined, 0];
          continue;
        }
        if (length > SENT_WHOLE_BYTES) reserved = length;
        pieces.push(piece);
      }
    } catch (error) {
      this.cache.unreserve(reserved);
      throw error;
    }
    const etag = `"${sha1.digest('base64url')}"`;
    if (pieces === undefined) return { etag, length, type, parts };
    const whole: RenderedBody = { bytes: Buffer.concat(pieces, length), type, etag };
    if (!cacheable) return { whole, kept: undefined };
    return { whole, kept: this.cache.set(version, key, whole, reserved) };
  }

  /** Sends a body too large to keep: headers from the first pass, then the bytes written again, piece by piece. */
  sendInPieces(request: FastifyRequest, reply: FastifyReply, produced: Extract<Produced, { parts: unknown }>, stalledMs: number): FastifyReply {
    reply.header('etag', produced.etag);
    if (notModified(request.headers['if-none-match'], produced.etag)) {
      if (request.method === 'HEAD') reply.header('content-length', String(produced.length));
      return reply.code(304).send();
    }
    reply.type(produced.type).header('content-length', String(produced.length));
    // Fastify states a length of 0 for a HEAD given nothing; given a stream, it keeps the one set.
    if (request.method === 'HEAD') return reply.send(Readable.from([]));
    closeWhenStalled(request, reply, stalledMs);
    return reply.send(Readable.from(piecesInTurns(produced.parts(), this.turns), { objectMode: false }));
  }
}

/**
 * Sends a rendered 200 (or its 304): whole up to SENT_WHOLE_BYTES, beyond it (a kept body, the
 * cache's bytes) in slices of the same bytes. A body more than a socket buffers is watched for a
 * stalled client (a HEAD or a 304, sent at once, ends the watch as it ends).
 */
export function sendRendered(request: FastifyRequest, reply: FastifyReply, body: RenderedBody, stalledMs: number): FastifyReply {
  if (body.bytes.length > SOCKET_BYTES) closeWhenStalled(request, reply, stalledMs);
  if (body.bytes.length <= SENT_WHOLE_BYTES || request.method === 'HEAD' || notModified(request.headers['if-none-match'], body.etag)) {
    return sendBody(request, reply, body);
  }
  reply.header('etag', body.etag).type(body.type).header('content-length', String(body.bytes.length));
  return reply.send(Readable.from(slicesOf(body.bytes), { objectMode: false }));
}

/** About what a socket's buffers take at once: a smaller answer leaves the process as it is written. */
const SOCKET_BYTES = 64 * 1024;

function* slicesOf(bytes: Buffer): Iterable<Buffer> {
  for (let at = 0; at < bytes.length; at += SOCKET_BYTES) yield bytes.subarray(at, at + SOCKET_BYTES);
}

/**
 * DECISIONS §14: the connection is closed (and logged, once) when its client takes no bytes of
 * this answer for `ms`. The socket's own timeout is reset by each write it completes and, while
 * one write is pending, fires only when two checks in a row saw none of it taken: checked every
 * `ms / 2`, a client is cut after between half of `ms` and `ms` of taking nothing. The server's
 * keep-alive timeout replaces it once the answer is sent.
 */
function closeWhenStalled(request: FastifyRequest, reply: FastifyReply, ms: number): void {
  reply.raw.setTimeout(Math.ceil(ms / 2), () => {
    request.log.info({ stalledMs: ms }, 'connection closed: it took no bytes of its answer for too long');
    reply.raw.destroy();
  });
}

/**
 * A kept body larger than SENT_WHOLE_BYTES stays in the cache while a connection sends it: the
 * bytes a stalled client holds are the cache's, counted in its bound, not a copy per connection.
 */
export function holdWhileSent(reply: FastifyReply, kept: Kept): void {
  if (kept.body.bytes.length <= SENT_WHOLE_BYTES) return;
  kept.senders++;
  reply.raw.once('close', () => kept.senders--);
}

