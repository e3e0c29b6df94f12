import { billingTickQueue } from './billing-tick/index.ts';
import { capPeriodsQueue } from './cap-periods/index.ts';
import type { JobContext } from './job-definition.ts';
import { queueUnscoredMentions } from './score/index.ts';

/** How often a worker looks for mentions a crash left unscored. */
const sweepIntervalMs = 60_000;

/**
 * What a worker does when it starts, before it polls, so that `npm start`
 * after a crash recovers on its own (the jobs a dead process held are the
 * worker registry's, worker-registry.ts):
 * - the daily ticks and cap period turns of every midnight missed while no
 *   worker ran, oldest first, once each (pg-boss never sends a cron time
 *   that passed while it was down). Before polling, so that a wallet that
 *   could not pay a missed day is paused before it is charged mentions;
 * - scoring for every stored mention left without a score or a job.
 * The sweep then runs every minute, for scoring jobs that failed for good.
 * A step that fails is logged and tried again on the next round.
 */
export async function startCrashRecovery(context: JobContext): Promise<{ stop(): Promise<void> }> {
  let billingCaughtUp = false;
  const round = async () => {
    if (!billingCaughtUp) {
      await billingTickQueue.handle([{}], context);
      await capPeriodsQueue.handle([{}], context);
      billingCaughtUp = true;
    }
    const queued = await queueUnscoredMentions(context);
    if (queued) context.log.warn('queued scoring for mentions left unscored', { mentions: queued });
  };
  const attempt = () => round().catch((error) => context.log.error('crash recovery failed; trying again in a minute', { error: String(error) }));
  await attempt();
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(attempt);
  }, sweepIntervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
