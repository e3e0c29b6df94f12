import { setTimeout as sleep } from 'node:timers/promises';
import { autoRechargesDueChannel, runDueAutoRecharges } from '../../subgraphs/billing/index.ts';
import type { JobContext } from '../job-definition.ts';

/**
 * Sends the auto-recharges that came due (spec 2.11.1) beside the queues in
 * each worker. A charge or the daily tick records a due recharge in its own
 * transaction and wakes the workers (LISTEN); the runner takes it with a
 * lease, so workers share the work, and charges the saved card. A recharge
 * whose run died or got no answer from Stripe is taken again when its
 * lease runs out, found by the fallback poll, and asks Stripe again with
 * the same idempotency key: one payment, credited once.
 */
export async function startAutoRechargeRunner(context: JobContext, options: { pollMs?: number } = {}): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  let running = false;
  let again = false;
  const run = { sql: context.sql, now: () => context.clock.now(), log: context.log };

  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      do {
        again = false;
        try {
          // A pass that took some may have left more: run again until one takes none.
          let taken: number;
          do taken = await runDueAutoRecharges(context.config.env, run);
          while (taken > 0 && !stopped);
        } catch (error) {
          context.log.error('auto-recharge run failed', { error: String(error) });
        }
      } while (again && !stopped);
      running = false;
    })();
  };

  const listener = await context.sql.listen(autoRechargesDueChannel, wake);
  const timer = setInterval(wake, options.pollMs ?? 5_000);
  wake();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listener.unlisten();
      while (running) await sleep(20);
    },
  };
}
