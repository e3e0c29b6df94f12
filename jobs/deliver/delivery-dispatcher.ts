import {
  attemptLimitOf,
  claimDueDeliveries,
  connectTelegramButtonsAtStart,
  deliveriesDueChannel,
  deliverySettings,
  fanOutAccountEvents,
  runDueDigests,
  sendClaimedDelivery,
} from '../../subgraphs/team/index.ts';
import { atInstant } from '../../runtime/instant-timer.ts';
import type { JobContext } from '../job-definition.ts';

export interface DispatcherOptions {
  /** Sends under way at once, all channels together. */
  concurrency?: number;
  /** Sends under way at once to one destination (a channel, an owner's address): a slow or dead endpoint holds at most these, never another's. */
  perLane?: number;
  /** The fallback poll for due retries and missed wake-ups. */
  pollMs?: number;
}

/**
 * Sends the deliveries outbox beside the queues in each worker: claims due
 * rows (leased, so several workers share the work and a crash loses
 * nothing), sends them concurrently within the bounds, records each
 * attempt. It wakes when rows are enqueued (LISTEN) and when a send ends,
 * and polls as a fallback; each poll also fans out the account-event
 * outbox and runs the digest rules whose hour has come.
 */
export async function startDeliveryDispatcher(context: JobContext, options: DispatcherOptions = {}): Promise<{ stop(): Promise<void> }> {
  const concurrency = options.concurrency ?? 256;
  const perLane = options.perLane ?? 32;
  const settings = deliverySettings(context.config.env, context.secrets);
  // In the background: a start never waits on Telegram, and a refusal is logged where it is met.
  void connectTelegramButtonsAtStart(context.sql, { env: context.config.env, log: context.log }).catch((error) =>
    context.log.warn('could not check for Telegram channels at start', { error: String(error) }),
  );
  const leaseSeconds = Math.ceil(settings.timeoutMs / 1000) + 30;
  const inFlight = new Map<string, number>();
  const sends = new Set<Promise<void>>();
  let stopped = false;
  let passing = false;
  let again = false;

  const pass = async () => {
    const busy = [...inFlight].filter(([, count]) => count >= perLane).map(([lane]) => lane);
    const claimed = await claimDueDeliveries(context.sql, {
      now: context.clock.now(),
      leaseSeconds,
      limit: concurrency - sends.size,
      perLane,
      busyLanes: busy,
      attemptLimit: attemptLimitOf,
    });
    for (const delivery of claimed) {
      inFlight.set(delivery.lane, (inFlight.get(delivery.lane) ?? 0) + 1);
      const send: Promise<void> = sendClaimedDelivery(context.sql, delivery, settings, () => context.clock.now())
        .then((recorded) => {
          if (recorded?.status === 'pending') wakeAt(recorded.nextAttemptAt);
        })
        .catch((error) => context.log.error('delivery attempt failed to record', { deliveryId: delivery.id, error: String(error) }))
        .finally(() => {
          const left = (inFlight.get(delivery.lane) ?? 1) - 1;
          if (left > 0) inFlight.set(delivery.lane, left);
          else inFlight.delete(delivery.lane);
          sends.delete(send);
          wake();
        });
      sends.add(send);
    }
    return claimed.length;
  };

  const wake = () => {
    if (stopped) return;
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    void (async () => {
      do {
        again = false;
        try {
          // A full batch may mean more are due: claim again at once.
          if ((await pass()) > 0 && sends.size < concurrency) again = true;
        } catch (error) {
          context.log.error('delivery dispatch failed', { error: String(error) });
        }
      } while (again && !stopped);
      passing = false;
    })();
  };

  // A retry is claimed when it falls due, not at the first poll after: the poll would stretch every wait by up to its own period.
  const retryTimers = new Set<() => void>();
  const wakeAt = (due: Date): void => {
    const cancel = atInstant(
      due.getTime(),
      () => {
        retryTimers.delete(cancel);
        wake();
      },
      () => context.clock.now().getTime(),
    );
    retryTimers.add(cancel);
  };

  const listener = await context.sql.listen(deliveriesDueChannel, wake);
  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    void (async () => {
      try {
        await fanOutAccountEvents(context.sql, context.clock.now(), context.config.env);
        await runDueDigests(context.sql, context.clock.now());
      } catch (error) {
        context.log.error('account events or digests failed to enqueue', { error: String(error) });
      } finally {
        ticking = false;
        wake();
      }
    })();
  }, options.pollMs ?? 1000);
  wake();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const cancel of retryTimers) cancel();
      while (ticking) await new Promise((resolve) => setTimeout(resolve, 20));
      await listener.unlisten();
      while (passing) await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all(sends);
    },
  };
}
