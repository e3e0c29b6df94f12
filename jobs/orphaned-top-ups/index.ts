import { z } from 'zod';
import { failOrphanedTopUps } from '../../subgraphs/billing/index.ts';
import type { JobDefinition } from '../job-definition.ts';

const orphanedTopUpsPayload = z.object({});

/**
 * Every hour, fails the top-ups whose process died before their Stripe
 * Checkout Session was saved and that no retry took over within 24 hours,
 * so they are pending for 25 hours at most. A run missed while no process
 * was up is caught up by the next.
 */
export const orphanedTopUpsQueue: JobDefinition<z.output<typeof orphanedTopUpsPayload>> = {
  name: 'orphaned-top-ups',
  payload: orphanedTopUpsPayload,
  schedule: { cron: '0 * * * *', payload: {} },
  batchSize: 1,
  retryLimit: 3,
  retryDelaySeconds: 60,
  expireInSeconds: 600,
  async handle(_payloads, context) {
    const failed = await failOrphanedTopUps(context.sql, context.clock.now());
    if (failed) context.log.info('orphaned top-ups failed', { failed });
  },
};
