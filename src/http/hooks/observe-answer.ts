import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';

/** One answer, under its route template (`unmatched` where no route took it). */
export function observeAnswer(metrics: ServiceMetrics, request: FastifyRequest, reply: FastifyReply): void {
  metrics.observeRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
}
/**
 * onResponse, when /metrics is served: every answer under its route template, never the raw URL,
 * so the label sets stay few whatever clients send.
 */
export function observeAnswers(metrics: ServiceMetrics) {
  return function observeAnswers(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    observeAnswer(metrics, request, reply);
    done();
  };
}
