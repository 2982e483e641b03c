import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DOCS_PREFIX, OPENAPI_PATH } from './docs-paths.js';

/** Headers of the inner answer that are the connection's or the outer reply's own business. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

/**
 * The OpenAPI document and the Swagger UI reference, served by a second app that is built on the
 * first request for either. Loading @fastify/swagger, @fastify/swagger-ui, @fastify/static and
 * yaml at start took ~15 % of the time from spawn to first answer (docs/performance.md, "Runs"), and most
 * servers never serve a page of the reference; its first reader waits for that instead. `build`
 * makes the same app with the docs registered, so the document describes exactly the routes this
 * app has; its answer is passed on as it is, under this app's own common headers, access log line
 * and metrics.
 */
export function registerLazyApiDocs(app: FastifyInstance, build: () => Promise<FastifyInstance>): void {
  let docs: Promise<FastifyInstance> | undefined;
  const docsApp = () =>
    (docs ??= (async () => {
      const built = await build();
      await built.ready();
      return built;
    })().catch((err: unknown) => {
      // A failed build is not kept: the next request for the reference tries again.
      docs = undefined;
      throw err;
    }));

  async function forward(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    // GET even for a HEAD: this app's own HEAD handling then drops the body and keeps its length.
    const answer = await (await docsApp()).inject({ method: 'GET', url: request.url, headers: request.headers });
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !NOT_FORWARDED.has(name) && !reply.hasHeader(name)) reply.header(name, value);
    }
    reply.code(answer.statusCode);
    // No body, no payload: a Buffer, even empty, would give the answer a content type of its own.
    return answer.rawPayload.length === 0 ? reply.send() : reply.send(answer.rawPayload);
  }

  app.register(async (scope) => {
    scope.get(OPENAPI_PATH, forward);
    scope.get(DOCS_PREFIX, forward);
    scope.get(`${DOCS_PREFIX}/*`, forward);
  });
  app.addHook('onClose', async () => {
    const built = await docs?.catch(() => undefined);
    await built?.close();
  });
}
