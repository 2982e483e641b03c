import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { decimal, isPositive } from '../../domain/money.js';
import { convert, convertBulk } from '../../domain/rate-queries.js';
import { answerUncached, type RouteContext } from '../answer.js';
import { HttpError } from '../errors.js';
import { bulkQuery, convertQuery, MESSAGES } from '../request-schemas.js';

/** DECISIONS §1.5: checked after every format rule, before currencies are looked up. */
function requirePositive(amount: string): void {
  if (!isPositive(decimal(amount))) throw new HttpError(400, MESSAGES.amountPositive);
}

export function convertRoutes(app: FastifyInstance, context: RouteContext): void {
  const { view, tracked } = context;
  app.get('/api/v1/convert', { schema: { querystring: convertQuery } }, (request, reply) => {
    const query = request.query as z.infer<typeof convertQuery>;
    requirePositive(query.amount);
    return answerUncached(request, reply, () => convert(view.snapshot, tracked, query));
  });

  app.get('/api/v1/convert/bulk', { schema: { querystring: bulkQuery } }, (request, reply) => {
    const query = request.query as z.infer<typeof bulkQuery>;
    requirePositive(query.amount);
    return answerUncached(request, reply, () => convertBulk(view.snapshot, tracked, { ...query, to: query.to.split(',') }));
  });
}
