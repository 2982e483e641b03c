import http from 'node:http';

/**
 * HTTP requests sent exactly as written: the request target is not normalised or re-encoded (as
 * fetch would), headers may repeat, and every call is bounded by a timeout. For the robustness
 * suites, which need to send what a hostile client sends.
 */
export interface RawRequest {
  method?: string;
  /** The request target, sent byte for byte (Node accepts \u0021-\u00ff). */
  target: string;
  /** Name/value pairs in order; a name may repeat. */
  headers?: [string, string][];
  body?: string;
  timeoutMs?: number;
  agent?: http.Agent;
  /** Send no Host header at all. */
  noHost?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export function rawRequest(host: string, port: number, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // With headers given as a list Node adds no Host header itself; HTTP/1.1 requires one.
    const flat: string[] = request.headers?.some(([name]) => name.toLowerCase() === 'host') || request.noHost ? [] : ['host', `${host}:${port}`];
    for (const [name, value] of request.headers ?? []) flat.push(name, value);
    if (request.body !== undefined) flat.push('content-length', String(Buffer.byteLength(request.body)));
    const req = http.request({
      host,
      port,
      method: request.method ?? 'GET',
      path: request.target,
      headers: flat,
      agent: request.agent ?? false,
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${request.timeoutMs ?? 10_000} ms`)), request.timeoutMs ?? 10_000);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      res.on('end', () => {
        clearTimeout(timer);
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(request.body);
  });
}

/** A keep-alive agent holding one connection, so a long run of requests does not churn sockets. */
export function oneConnectionAgent(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

export interface SocketExchange {
  /** Everything the server sent. */
  received: string;
  /** Whether the server closed the connection within the wait, and after how long (from the first byte sent). */
  closed: boolean;
  closedAfterMs: number;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `parts` to a fresh TCP connection (a number is a pause in ms between writes), then
 * waits at most `waitMs` for the server to close it. For requests no HTTP client would send:
 * oversized, malformed, or trickled byte by byte.
 */
export async function socketExchange(port: number, parts: (string | Buffer | number)[], waitMs = 5000): Promise<SocketExchange> {
  const { connect } = await import('node:net');
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  const closedAt = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = performance.now();
  let closed = false;
  void closedAt.then(() => (closed = true));
  for (const part of parts) {
    if (closed) break;
    if (typeof part === 'number') await new Promise((resolve) => setTimeout(resolve, part));
    else socket.write(part);
  }
  const end = await Promise.race([closedAt, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), waitMs))]);
  socket.destroy();
  const text = received.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  return {
    received: text,
    closed: end !== undefined,
    closedAfterMs: end === undefined ? Infinity : end - started,
    status: status === undefined ? undefined : Number(status),
    headers,
    body: split === -1 ? '' : received.subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1')).toString('utf8'),
  };
}
