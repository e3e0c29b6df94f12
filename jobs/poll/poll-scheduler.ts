import { claimDuePolls, recordUnpolledPlatforms } from '../../subgraphs/keywords/index.ts';
import { claimDueCommentWatches } from '../../subgraphs/mentions/index.ts';
import { platformAvailability } from '../connectors/platform-availability.ts';
import type { JobContext } from '../job-definition.ts';

const hour = 3_600_000;
/** Polls a worker hands out per pass; the rest are due on the next pass. */
const claimLimit = 500;

/**
 * Hands due polls, and due thread reads, to their queues on a timer. State lives in
 * keyword_polls (each claimed row is leased), so any number of workers can
 * run this and a crash only delays a poll until its lease runs out.
 *
 * Platforms this process has no settings for are said once, in the start-up
 * table, and never polled: their polls carry the reason instead and stay due,
 * so a restart with the setting in place polls them at once.
 */
export function startPollScheduler(context: JobContext): { stop(): Promise<void> } {
  const base = context.config.pollIntervalSeconds;
  const leaseSeconds = Math.max(60, base * 2);
  const platforms = platformAvailability(context.config.env);
  const unpolled = platforms.flatMap((entry) => (entry.enabled ? [] : [entry]));
  context.log.info(`platforms: ${platforms.length - unpolled.length} enabled, ${unpolled.length} disabled`, {
    enabled: platforms.filter((entry) => entry.enabled).map((entry) => entry.platform),
    disabled: Object.fromEntries(unpolled.map(({ platform, reason }) => [platform, reason])),
  });
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    const now = context.clock.now();
    await recordUnpolledPlatforms(context.sql, unpolled, now);
    const skipped = unpolled.map((entry) => entry.platform);
    const { searches, sources } = await claimDuePolls(context.sql, now, leaseSeconds, claimLimit, skipped);
    for (const search of searches) {
      // Overlap the last poll by an hour: late-indexed posts still arrive, and storage de-duplicates.
      const since = search.lastPolledAt ? new Date(search.lastPolledAt.getTime() - hour) : new Date(now.getTime() - 24 * hour);
      await context.send('poll', { ...search, since: since.toISOString(), lookback: false });
    }
    for (const source of sources) {
      const since = source.lastPolledAt ? new Date(source.lastPolledAt.getTime() - hour) : new Date(now.getTime() - 24 * hour);
      await context.send('poll-sources', { keywordId: source.keywordId, platform: source.platform, since: since.toISOString(), lookback: false });
    }
    const threads = await claimDueCommentWatches(context.sql, now, leaseSeconds, claimLimit);
    for (let i = 0; i < threads.length; i += 10) {
      const watches = threads.slice(i, i + 10).map((watch) => ({
        mentionId: watch.mentionId,
        lastCheckedAt: watch.lastCheckedAt?.toISOString() ?? null,
        until: watch.until.toISOString(),
      }));
      await context.send('comments', { watches });
    }
  };
  const timer = setInterval(() => {
    running = running.then(pass).catch((error) => context.log.error('poll scheduling failed', { error: String(error) }));
  }, Math.max(1000, (base * 1000) / 4));
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
