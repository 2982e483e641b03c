import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { workerMetrics } from '../../metrics/cluster-metrics.js';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';
import { HttpError, sendError } from '../errors.js';
import { withoutCors } from '../hooks/without-cors.js';

export interface MetricsExposure {
  metrics: ServiceMetrics;
  /** METRICS_TOKEN: when set, a scrape needs `Authorization: Bearer <token>`. */
  token: string | undefined;
}

const BEARER = /^Bearer +(\S+)$/i;

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics (Prometheus text format), beside the authenticated plugin: no API key, never
 * counted, no CORS headers; registered only where it may answer (config.ts, metricsAccess).
 * Every answer is observed by the observeAnswer hook (app.ts). In a worker of WORKERS > 1 a scrape answers the
 * whole instance, summed by the primary (cluster-metrics.ts), or 503 when that fails: never this
 * worker's share alone.
 */
export function metricsRoutes(app: FastifyInstance, { metrics, token }: MetricsExposure): void {
  const instance = cluster.isWorker ? workerMetrics(() => metrics.metricsAsJSON()) : undefined;
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', { onSend: withoutCors }, async (request, reply) => {
    if (expected !== undefined) {
      const header = request.headers.authorization;
      const sent = header === undefined ? undefined : BEARER.exec(header)?.[1];
      if (sent === undefined) return sendError(reply, new HttpError(401, 'Missing or malformed Authorization header'));
      // Digests have one length, so the comparison takes the same time whatever was sent.
      if (!timingSafeEqual(digest(sent), expected)) return sendError(reply, new HttpError(401, 'Invalid metrics token'));
    }
    if (instance === undefined) {
      const { body, contentType } = await metrics.exposition();
      return reply.type(contentType).send(body);
    }
    try {
      const { body, contentType } = await instance.exposition();
      return reply.type(contentType).send(body);
    } catch (err) {
      request.log.error({ err }, 'the instance metrics could not be gathered from the workers');
      return sendError(reply, new HttpError(503, 'The metrics of every worker could not be gathered; try again'));
    }
  });
}
