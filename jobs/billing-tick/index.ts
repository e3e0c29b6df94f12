import { z } from 'zod';
import { billingDayOf, makeLedgerMonths, runDailyTicksThrough } from '../../subgraphs/billing/index.ts';
import { makeMentionMonths } from '../../subgraphs/mentions/index.ts';
import type { JobDefinition } from '../job-definition.ts';

const billingTickPayload = z.object({
  /** The UTC day to charge (`YYYY-MM-DD`), after any day before it not yet ticked; default the day that has begun, by the clock. */
  day: z.iso.date().optional(),
});
type BillingTickPayload = z.output<typeof billingTickPayload>;

/**
 * The daily billing tick at UTC midnight (spec 3.1, 3.2): charges every
 * running keyword the new day or pauses the wallets that cannot pay it,
 * after ticking any day a stopped service missed, oldest first. Running it
 * again, or on two workers, charges nothing twice. Workers also run it when
 * they start (jobs/crash-recovery.ts): pg-boss never sends a cron time that
 * passed while no process was up. Each run also makes the months of the mentions
 * table and of the ledger ahead of the clock (migrations 053 and 056).
 */
export const billingTickQueue: JobDefinition<BillingTickPayload> = {
  name: 'billing-tick',
  payload: billingTickPayload,
  schedule: { cron: '0 0 * * *', payload: {} },
  batchSize: 1,
  retryLimit: 10,
  retryDelaySeconds: 30,
  // 100,000 keywords tick in about 4 s (README); an hour leaves room for weeks of missed days.
  expireInSeconds: 3_600,
  async handle(payloads, context) {
    for (const payload of payloads) {
      const now = context.clock.now();
      await makeMentionMonths(context.sql, now);
      await makeLedgerMonths(context.sql, now);
      for (const ticked of await runDailyTicksThrough(context.sql, payload.day ?? billingDayOf(now), now)) context.log.info('billing tick', { ...ticked });
    }
  },
};
