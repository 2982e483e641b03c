import type { QuotaDecision } from '../domain/quota.js';

/**
 * Answers requests of one key, time and policy that a store decided together, as they would
 * have been one by one in a row: the first `granted` are counted (each with the counter after
 * it), the rest refused at the counter after them all.
 */
export function answerCounted(requests: readonly { resolve: (decision: QuotaDecision) => void }[], granted: number, usedAfter: number, periodStart: number): void {
  requests.forEach((request, i) =>
    request.resolve(i < granted ? { allowed: true, used: usedAfter - granted + i + 1, periodStart } : { allowed: false, used: usedAfter, periodStart }),
  );
}
