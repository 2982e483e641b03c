import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, sendError } from './errors.js';
import { commonHeaders } from './hooks/common-headers.js';
import { limitMessages, type HttpLimits } from './limits.js';

/**
 * Fastify's `frameworkErrors`: what the router refuses before any hook (a path parameter past the
 * URL limit, an invalid percent-encoding) gets the API's error answer and common headers.
 * `answered` is told of each such answer when it is sent: no route took it, so no onResponse runs.
 */
export function frameworkErrors(limits: HttpLimits, answered: (request: FastifyRequest, reply: FastifyReply) => void) {
  const text = limitMessages(limits);
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    commonHeaders(request, reply, () => undefined);
    reply.raw.once('finish', () => answered(request, reply));
    const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
    return sendError(reply, new HttpError(status, status === 414 ? text[414] : text.badUrl));
  };
}
