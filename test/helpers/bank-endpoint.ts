import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { TestContext } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { DayRange, SourceAdapter, SourceRequest } from '../../src/ingest/sources/source-adapter.js';

/** One request as a bank's endpoint received it. */
export interface Received {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the endpoint answers a request with: a status (200 unless given) and a body. */
export type BankAnswer = (request: Received) => { status?: number; body: Buffer | string };

/**
 * A local stand-in for a bank's endpoint, closed after the test: it reads each whole request
 * (method, headers, body), answers as `answer` says, and keeps every request, in order.
 */
export async function bankEndpoint(t: TestContext, answer: BankAnswer): Promise<{ base: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one = { method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(one);
      const { status = 200, body } = answer(one);
      response.statusCode = status;
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { base: `http://127.0.0.1:${address.port}`, received };
}

/**
 * A registered adapter whose requests (method, headers, body as its own; a GET of each URL where it
 * declares none) go to `base` instead of the bank's host.
 */
export function askingAt(adapter: SourceAdapter, base: string): SourceAdapter {
  const moved = (request: SourceRequest) => ({ ...request, url: base + new URL(request.url).pathname + new URL(request.url).search });
  const own = (range?: DayRange): SourceRequest[] => adapter.requests?.(range) ?? adapter.urls(range).map((url) => ({ url }));
  return { ...adapter, requests: (range?: DayRange) => own(range).map(moved) };
}

/** The element a SOAP request's Body holds, with its attributes (`@_xmlns`: its namespace) as `@_name`. */
export function soapOperation(body: string): { name: string; element: Record<string, unknown> } {
  const document = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(body) as Record<string, unknown>;
  const child = (node: unknown, local: string): unknown =>
    typeof node === 'object' && node !== null ? Object.entries(node).find(([key]) => key === local || key.endsWith(`:${local}`))?.[1] : undefined;
  const soapBody = child(child(document, 'Envelope'), 'Body');
  const operations = typeof soapBody === 'object' && soapBody !== null ? Object.entries(soapBody).filter(([key]) => !key.startsWith('@_')) : [];
  if (operations.length !== 1) throw new Error(`not a SOAP request with one operation: ${body}`);
  const [name, element] = operations[0]!;
  return { name, element: typeof element === 'object' && element !== null ? (element as Record<string, unknown>) : {} };
}
