import { z } from 'zod';
import { billingDayOf, chargeDailyKeywordFees } from '../../subgraphs/billing/index.ts';
import type { JobDefinition } from '../job-definition.ts';

const billingTickPayload = z.object({
  /** The UTC day to charge (`YYYY-MM-DD`); the scheduled run charges the day that has just begun. */
  day: z.iso.date().optional(),
});
type BillingTickPayload = z.output<typeof billingTickPayload>;

/**
 * The daily billing tick at UTC midnight (spec 3.1, 3.2): charges every
 * running keyword the new day or pauses the wallets that cannot pay it.
 * Running it again, or on two workers, charges nothing twice.
 */
export const billingTickQueue: JobDefinition<BillingTickPayload> = {
  name: 'billing-tick',
  payload: billingTickPayload,
  schedule: { cron: '0 0 * * *', payload: {} },
  batchSize: 1,
  retryLimit: 10,
  retryDelaySeconds: 30,
  async handle(payloads, context) {
    for (const payload of payloads) {
      const day = payload.day ?? billingDayOf(context.clock.now());
      const report = await chargeDailyKeywordFees(context.sql, day, { at: context.clock.now() });
      context.log.info('billing tick', { day, ...report });
    }
  },
};
