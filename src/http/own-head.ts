import type { ServerResponse } from 'node:http';
import { allowedHeaderList } from './hooks/common-headers.js';
import type { RequestId } from './request-id.js';
import type { RenderedBody } from './response-cache.js';

/**
 * The fields in which node:http's ServerResponse keeps its head and what decides its connection
 * headers. They are not public API, so nothing here trusts them blindly: OwnHeads checks its head
 * against the one Node writes before it writes any itself.
 */
interface HeadFields {
  /** The head as Node will send it, set by writeHead; null until then. `end` sends it first, in one write with a string body. */
  _header: string | null;
  shouldKeepAlive: boolean;
  sendDate: boolean;
  _defaultKeepAlive: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket: number | undefined;
  maxRequestsOnConnectionReached: boolean | undefined;
}

/**
 * A 200 answer of the fast path, written with a head made here instead of by `writeHead`.
 *
 * Node's `writeHead` checks every header name and value with a regular expression and looks each
 * name up among the ones it treats specially. With the 12 headers every allowed answer carries,
 * making the head here instead took a rates/latest answer from ~100,800 to ~88,500 main-thread
 * instructions, a convert answer from ~113,000 to ~98,900 and a bulk answer from 184–189k to
 * 168–170k (callgrind, 2,000 answers after 8,000). Those checks can find nothing here:
 * every value is made by this service (numbers, the ETag, the fixed headers) or is a RequestId,
 * which holds nothing but `[\w.:-]`.
 *
 * The head is the one Node writes, byte for byte. The first answer that could take it is written
 * by `writeHead`, and Node's head is compared with the one made here for the same values and
 * date; only if they are equal are later answers given their head from here (otherwise never, for
 * the life of the process: a Node.js whose head differs only costs the checks). It is taken only
 * for a connection that stays open on Node's default keep-alive with no request limit per
 * connection (the Connection and Keep-Alive headers then do not vary); any other answer goes
 * through `writeHead`.
 *
 * An ASCII body (nearly every answer) is put in the same string as the head, and `end` is called
 * without a chunk: Node then sends what it holds as the head in one write. `end(chunk)` queues the
 * chunk and an empty one, so every answer left by `writev`, whose native side reads each chunk
 * back through V8's API: ~7,000 instructions an answer more (rates/latest 88.5k → 81.5k).
 */
export class OwnHeads {
  /** Whether heads made here are Node's: undefined until the first comparison. */
  private matched: boolean | undefined;

  /** True once a head made here was found equal to Node's, and used from then on. */
  get inUse(): boolean {
    return this.matched === true;
  }

  send(response: ServerResponse, requestId: RequestId, limit: string, remaining: number, reset: number, body: RenderedBody): void {
    const fields = response as unknown as HeadFields;
    const plain = keepsAliveAsDefault(fields);
    if (plain && this.matched === true) {
      const head = headOf(requestId, limit, remaining, reset, body, utcDate(), fields._keepAliveTimeout);
      if (body.encoding === 'latin1') {
        // Node writes its head as latin1, the encoding of such a body too.
        fields._header = head + body.text;
        response.end();
        return;
      }
      fields._header = head;
    } else {
      response.writeHead(200, allowedHeaderList(requestId, limit, remaining, reset, body.etag, body.byteLength));
      if (plain && this.matched === undefined) {
        const written = fields._header;
        const date = typeof written === 'string' ? /\r\nDate: ([^\r\n]+)\r\n/.exec(written)?.[1] : undefined;
        this.matched = date !== undefined && written === headOf(requestId, limit, remaining, reset, body, date, fields._keepAliveTimeout);
      }
    }
    response.end(body.text, body.encoding);
  }
}

/** Nothing written yet, and Node would close the head with its default keep-alive headers. */
function keepsAliveAsDefault(fields: HeadFields): boolean {
  return (
    fields._header === null &&
    fields.shouldKeepAlive === true &&
    fields.sendDate === true &&
    fields._defaultKeepAlive === true &&
    typeof fields._keepAliveTimeout === 'number' &&
    fields._keepAliveTimeout > 0 &&
    !fields._maxRequestsPerSocket &&
    !fields.maxRequestsOnConnectionReached
  );
}

/** Stands for each value of the list while its lines are cut into the parts between values. */
const VALUE = '\u0000';

/**
 * The header lines `writeHead` writes for allowedHeaderList, cut at its six values, taken from
 * that list itself so that its names and order are written down once: `[before the request id,
 * before the limit, before remaining, before reset, before the ETag, before the length, after it]`.
 */
const PARTS = headerLines(allowedHeaderList(VALUE, VALUE, VALUE as never, VALUE as never, VALUE, VALUE as never)).split(VALUE);
if (PARTS.length !== 7) throw new Error('allowedHeaderList no longer has the six values own-head.ts fills in');

function headerLines(list: readonly (string | number)[]): string {
  let lines = '';
  for (let i = 0; i < list.length; i += 2) lines += `${list[i]}: ${list[i + 1]}\r\n`;
  return lines;
}

/** What `writeHead(200, allowedHeaderList(...))` writes, with Node's own last three headers. */
function headOf(requestId: string, limit: string, remaining: number, reset: number, body: RenderedBody, date: string, keepAliveMs: number): string {
  return (
    `HTTP/1.1 200 OK\r\n${PARTS[0]}${requestId}${PARTS[1]}${limit}${PARTS[2]}${remaining}${PARTS[3]}${reset}` +
    `${PARTS[4]}${body.etag}${PARTS[5]}${body.byteLength}${PARTS[6]}` +
    `Date: ${date}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n\r\n`
  );
}

let dateSecond = -1;
let dateText = '';

/** The Date header's value for now, made once a second (Node keeps its own the same way). */
function utcDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}
