import { z } from 'zod';
import { turnCapPeriodsThrough } from '../../subgraphs/billing/index.ts';
import type { JobDefinition } from '../job-definition.ts';

const capPeriodsPayload = z.object({});

/**
 * Every cap period starts at a UTC midnight (a day, a Monday, the 1st), so a
 * run then resumes each capped keyword whose new period has room (3.1), after
 * the turns of any midnight a stopped service missed, oldest first.
 */
export const capPeriodsQueue: JobDefinition<z.output<typeof capPeriodsPayload>> = {
  name: 'cap-periods',
  payload: capPeriodsPayload,
  schedule: { cron: '0 0 * * *', payload: {} },
  batchSize: 1,
  retryLimit: 10,
  retryDelaySeconds: 30,
  expireInSeconds: 600,
  async handle(_payloads, context) {
    for (const turn of await turnCapPeriodsThrough(context.sql, context.clock.now())) context.log.info('cap periods turned', { ...turn });
  },
};
