import { randomUUID } from 'node:crypto';
import { METHODS, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errorJson, HttpError, JSON_TYPE } from './errors.js';
import { FIXED_HEADERS } from './hooks/common-headers.js';
import { limitMessages, type HttpLimits } from './limits.js';

type ClientError = Error & { code?: string; rawPacket?: unknown };

/**
 * What the client-error handler knows of each connection: the request it is on and its response
 * (noted by the requestLimits hook), and whether a refusal was already written. One per app.
 */
export class Exchanges {
  private readonly current = new WeakMap<Socket, { request: IncomingMessage; response: ServerResponse }>();
  /** After a parse error Node hands every further chunk to the handler again: answered once. */
  private readonly refused = new WeakSet<Socket>();

  begin(request: IncomingMessage, response: ServerResponse): void {
    this.current.set(request.socket, { request, response });
  }

  /** Whether the request on this socket was answered before its body finished arriving (a 401, a 404). */
  answeredMidRequest(socket: Socket): boolean {
    const exchange = this.current.get(socket);
    return exchange !== undefined && !exchange.request.complete && exchange.response.headersSent;
  }

  /** True the first time only. */
  refuse(socket: Socket): boolean {
    if (this.refused.has(socket)) return false;
    this.refused.add(socket);
    return true;
  }
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers too large, a
 * timeout, bytes that are not HTTP). Node's own answer to those is an empty body; this one is the
 * spec's JSON error shape. The connection is half-closed and drained rather than reset, so the
 * client can read the answer even while it is still sending, and destroyed shortly after.
 */
export function clientErrorHandler(limits: HttpLimits, exchanges: Exchanges, observe: (method: string, status: number) => void) {
  const text = limitMessages(limits);
  return function onClientError(this: FastifyInstance, err: ClientError, socket: Socket): void {
    if (err.code === 'ECONNRESET' || socket.destroyed || !exchanges.refuse(socket)) return;
    const status = statusOf(err, limits);
    // No request was parsed to carry an id: this answer gets its own, as every answer has one.
    const reqId = randomUUID();
    // Only the code: the error's message and stack say nothing a client or operator needs here.
    this.log.info({ reqId, code: err.code, status }, 'refused before a request was read');
    // A request answered before its body finished arriving (a 401, a 404) that then times out
    // must not get a second answer on the same connection: it is only closed.
    if (socket.writable && !exchanges.answeredMidRequest(socket)) {
      // The same body and common headers as every other answer (errors.ts, common-headers.ts).
      const body = errorJson(new HttpError(status, text[status]));
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          `Content-Type: ${JSON_TYPE}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${reqId}\r\n` +
          Object.entries(FIXED_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
          'Connection: close\r\n\r\n' +
          (methodOf(err.rawPacket) === 'HEAD' ? '' : body),
      );
      observe(methodOf(err.rawPacket), status);
      setTimeout(() => socket.destroy(), 2_000).unref();
    } else {
      socket.destroy();
    }
  };
}

/** The method a refused request names, when the bytes start with one Node knows; else UNKNOWN (a bounded metrics label). */
function methodOf(packet: unknown): string {
  if (!Buffer.isBuffer(packet)) return 'UNKNOWN';
  const space = packet.indexOf(0x20);
  const method = space > 0 && space <= 16 ? packet.subarray(0, space).toString('latin1') : '';
  return METHODS.includes(method) ? method : 'UNKNOWN';
}

function statusOf(err: ClientError, limits: HttpLimits): 400 | 408 | 414 | 431 {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (err.code === 'HPE_HEADER_OVERFLOW') return overflowIsTheUrl(err.rawPacket, limits) ? 414 : 431;
  return 400;
}

/**
 * The parser reports one overflow for the request line and headers together. When the data it
 * was reading starts a request line (`METHOD SP target`) whose target alone passes the URL
 * limit, the URL is what was too long.
 */
function overflowIsTheUrl(packet: unknown, limits: HttpLimits): boolean {
  if (!Buffer.isBuffer(packet)) return false;
  const space = packet.indexOf(0x20);
  if (space < 1 || space > 16) return false;
  for (let i = 0; i < space; i++) {
    const c = packet[i]!;
    if (c < 0x41 || c > 0x5a) return false;
  }
  const lineEnd = packet.indexOf('\r\n');
  return (lineEnd === -1 ? packet.length : lineEnd) - space - 1 > limits.maxUrlLength;
}
