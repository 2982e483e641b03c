import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { KnownKey } from '../../live/key-cache.js';
import { loggableError } from '../../loggable-error.js';
import { errorJson, httpErrorOf, type HttpError } from '../errors.js';
import type { Charge } from '../hooks/count-request.js';
import type { RatesData } from '../endpoints/endpoint.js';
import type { AppRules } from '../endpoints/validate-parts.js';
import type { Turns } from '../taking-turns.js';
import { RATE_TOOLS, type RateTool, type ToolAnswer } from './rate-tools.js';
import type { ToolArguments } from './tool-arguments.js';

export interface ToolServerDeps {
  /** The rates, currencies and sources at the time of the call (the live snapshot). */
  data(): RatesData;
  /** The app's rules for what its configuration decides (the enabled sources: parameters.ts, sourceRules). */
  rules: AppRules;
  /** The app's one queue of heavy work, shared with the HTTP API's heavy answers (taking-turns.ts). */
  turns: Turns;
  /** Counts one request of the key against its quota (hooks/count-request.ts). */
  charge(key: KnownKey): Promise<Charge>;
  version: string;
}

/** A tool error: the API's error body (status and message(s)) as text, as the HTTP API sends it. */
function toolError(error: HttpError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorJson(error) }] };
}

/**
 * One call in the order of DECISIONS §1 after the key: the quota (a refused call is not counted
 * and gets the 429), then the API's validation and the answer, a failure counted like a 400.
 */
async function call(tool: RateTool, args: ToolArguments, key: KnownKey, deps: ToolServerDeps, log: FastifyBaseLogger): Promise<CallToolResult> {
  let answer: ToolAnswer;
  try {
    const { refused } = await deps.charge(key);
    if (refused) return toolError(refused);
    answer = await tool.answer({ data: deps.data(), rules: deps.rules, turns: deps.turns }, args);
  } catch (error) {
    const refusal = httpErrorOf(error);
    // As the API's error handler: a backend outage (503) is logged by the stores, once; other 5xx here.
    if (refusal.statusCode >= 500 && refusal.statusCode !== 503) log.error({ err: loggableError(error), tool: tool.name }, 'tool call failed');
    return toolError(refusal);
  }
  // The same strings twice: structured, and as its JSON text for clients that read text only.
  return { structuredContent: { ...answer.structured }, content: [{ type: 'text', text: answer.text }] };
}

/**
 * The MCP server of one POST /mcp (stateless: one per request, as the SDK's stateless examples
 * make it), its tools acting for the request's key.
 */
export function rateToolsServer(key: KnownKey, deps: ToolServerDeps, log: FastifyBaseLogger): McpServer {
  const server = new McpServer({ name: 'currency-rates', version: deps.version });
  for (const tool of RATE_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args: ToolArguments) => call(tool, args, key, deps, log),
    );
  }
  return server;
}
