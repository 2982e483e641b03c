import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { KeyCache } from '../../live/key-cache.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { authenticate } from '../hooks/authenticate.js';
import { quotaCounter, type QuotaDeps } from '../hooks/count-request.js';
import { ratesDataOf, type RatesData } from '../endpoints/endpoint.js';
import type { ApiRouteDeps } from '../routes/api-routes.js';

export const MCP_PATH = '/mcp';

/** A JSON-RPC message with a tool's arguments is small: a modest limit, for this route only. */
export const MCP_BODY_LIMIT = 64 * 1024;

/** The API's data and its one queue of heavy work, as the API's routes have them, with the key check and the quota. */
export interface McpRouteDeps extends Pick<ApiRouteDeps, 'view' | 'sources' | 'tracked' | 'turns' | 'rules'> {
  keys: KeyCache;
  quota: QuotaDeps;
}

/** The server's version, as initialize reports it. */
const VERSION = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'))).version;

/** The SDK's transport and the tools' server built on the SDK. */
type Sdk = [typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), typeof import('./rate-tools-server.js')];
let sdk: Promise<Sdk> | undefined;

/**
 * Loaded on the first POST /mcp: a server no agent calls never holds the MCP SDK (its code and
 * its zod schemas are megabytes of heap). A load that failed is tried again by the next call.
 */
function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('./rate-tools-server.js')]).catch((err: unknown) => {
    sdk = undefined;
    throw err;
  });
  return sdk;
}

/** The JSON-RPC error the SDK's stateless examples answer GET and DELETE with. */
const METHOD_NOT_ALLOWED = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });

/** Every method but POST (HEAD comes with GET; OPTIONS is the preflight) is refused on /mcp. */
const REFUSED = ['GET', 'DELETE', 'PUT', 'PATCH'];

/**
 * The request as the SDK's web-standard transport reads it: its headers and path (its body is
 * parsed already). The transport checks no host (no DNS-rebinding list is set), so a fixed origin
 * serves, and a Host header the URL parser would refuse cannot fail the request.
 */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers });
}

/** Sends the transport's answer through Fastify, so the app's headers, logs and metrics apply to it. */
async function sendAnswer(reply: FastifyReply, answer: Response): Promise<FastifyReply> {
  reply.code(answer.status);
  answer.headers.forEach((value, name) => reply.header(name, value));
  // JSON responses (enableJsonResponse), or no body (202 for notifications). As bytes: a history's
  // megabytes are not decoded into a string only to be encoded again.
  return reply.send(answer.body === null ? undefined : Buffer.from(await answer.arrayBuffer()));
}

/**
 * DECISIONS §17: POST /mcp, an MCP server over the Streamable HTTP transport, stateless, with
 * answers as JSON rather than event streams (every tool answers at once). Registered in a plugin
 * context of its own: its JSON body parser and the key check apply to this route alone. Each tool
 * call is counted in the tool (rate-tools-server.ts); initialize, tools/list and notifications are not.
 * The SDK's web-standard transport turns a Request into a Response, sent through the reply rather
 * than written to a hijacked socket, so the app's hooks still apply: request id, CORS, access log,
 * metrics, `Connection: close` while draining.
 */
export function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps): void {
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: MCP_BODY_LIMIT }, app.getDefaultJsonParser('error', 'error'));
  const charge = quotaCounter(deps.quota);
  const { view, sources, tracked, turns, rules } = deps;
  const data = (): RatesData => ratesDataOf(view, view.snapshot, tracked, sources);

  app.post(MCP_PATH, { bodyLimit: MCP_BODY_LIMIT, onRequest: authenticate(deps.keys) }, async (request, reply) => {
    const key = request.quotaKey;
    if (key === undefined) throw new Error('the MCP route runs after authenticate');
    const [{ WebStandardStreamableHTTPServerTransport }, { rateToolsServer }] = await loadSdk();
    const server = rateToolsServer(key, { data, rules, turns, charge, version: VERSION }, request.log);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      return await sendAnswer(reply, await transport.handleRequest(webRequest(request), { parsedBody: request.body }));
    } finally {
      await server.close();
    }
  });

  // DECISIONS §1.1: a method the path does not serve is refused before the key check, not counted.
  app.route({
    method: REFUSED,
    url: MCP_PATH,
    // Answered in onRequest, before any body is read.
    onRequest: async (_request, reply) => reply.code(405).header('allow', 'POST').type('application/json').send(METHOD_NOT_ALLOWED),
    handler: async () => undefined,
  });
  // The CORS preflight of a browser-based MCP client (DECISIONS §7: no key, not counted).
  app.options(MCP_PATH, async (_request, reply) =>
    reply
      .code(204)
      .header('allow', 'POST, OPTIONS')
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Request-Id')
      .header('access-control-max-age', '86400')
      .send(),
  );
}
